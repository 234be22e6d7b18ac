using ProtocolBench.Lab.Conditions;
using ProtocolBench.Shared.Domain;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>The Locust engine's programs (tools/stacks/locust/) and what to say when Debian's Python cannot run them.</summary>
public static class LocustStack
{
    /// <summary>Where the locustfile, the master and the stack's install line are.</summary>
    public static string Folder => Path.Combine(ProjectPaths.RootOrCurrent, "tools", "stacks", "locust");

    /// <summary>
    /// The stack's versions as master.py says them ("Python 3.11.2, Locust 2.12.1, gevent 22.10.2, grpcio 1.51.1"), or, when it
    /// cannot run, the message that says why and gives the install line.
    /// </summary>
    public static (string? Versions, string? Missing) Probe()
    {
        var (versions, problem) = ClientStacks.AskVersions(ClientStacks.Python, [Path.Combine(Folder, "master.py"), "--versions"]);
        return versions is not null
            ? (versions, null)
            : (null, $"--engine locust drives the users through Debian's Locust 2.12.1 with grpcio, protobuf, websocket-client and msgpack, which " +
                     $"{ClientStacks.Python} cannot import here ({problem}): apt-get install {ClientStacks.DebianPackages("locust")}");
    }
}
