namespace ProtocolBench.Lab.Services;

/// <summary>The services could not start, or did not stop cleanly; the message says what to do.</summary>
public sealed class LaunchException(string message) : Exception(message);
