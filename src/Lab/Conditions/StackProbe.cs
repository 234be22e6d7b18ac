namespace ProtocolBench.Lab.Conditions;

/// <summary>What <see cref="ClientStacks.Probe"/> found: the stack's versions, or why it could not run (its program's last word).</summary>
public sealed record StackProbe(ClientStack Stack, string? Versions, string? Problem)
{
    public bool Found => Versions is not null;

    /// <summary>What to say when the stack is missing: what it needs, what went wrong, and the line that installs it.</summary>
    public string Missing => Stack switch
    {
        ClientStack.Jmeter =>
            "--client jmeter calls through Debian's JMeter 2.13, grpc-java, Netty and netty-tcnative, compiled here by a JDK, which " +
            $"tools/stacks/jmeter/cell.sh could not find or start ({Problem}): apt-get install {ClientStacks.DebianPackages(Stack)}",
        ClientStack.Node =>
            "--client node calls through Node.js 20.18.1 or later with undici, @grpc/grpc-js, @grpc/proto-loader and @microsoft/signalr from " +
            $"tools/stacks/node's lock file, which could not be found or started ({Problem}): apt-get install nodejs npm && " +
            $"npm ci --prefix {Path.Combine(ProjectPaths.RootOrCurrent, "tools", "stacks", "node")}",
        _ =>
            $"--client {Stack.Name()} calls through Debian's Python 3 with requests, grpcio and protobuf, which {ClientStacks.Python} cannot " +
            $"import here ({Problem}): apt-get install {ClientStacks.DebianPackages(Stack)}",
    };
}
