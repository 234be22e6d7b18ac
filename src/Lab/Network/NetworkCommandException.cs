namespace ProtocolBench.Lab.Network;

/// <summary>A command of iproute2 or iptables failed; the message is the command and what it printed.</summary>
public sealed class NetworkCommandException(string message) : Exception(message);
