namespace ProtocolBench.Lab.CommandLine;

/// <summary>A command line that cannot be run as given; the message says what to change. Exit code 2.</summary>
public sealed class UsageException(string message) : Exception(message);
