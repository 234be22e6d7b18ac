using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Network;

namespace ProtocolBench.Lab.CommandLine;

/// <summary>
/// What the options ask of this machine, found before anything starts: a client stack other than .NET's, and a shaped
/// link (root, iproute2, and for a delay without netem iptables and libnetfilter_queue). The commands ask the machine;
/// a test of parsing answers for it, so parsing is tested where neither is installed.
/// </summary>
public sealed record MachineProbes(Func<ClientStack, StackProbe> Stack, Func<NetworkProfile, string?> LinkUnavailable)
{
    public static MachineProbes Real { get; } = new(ClientStacks.Probe, profile => ShapedLink.Unavailable(profile));
}
