namespace ProtocolBench.Lab.Conditions;

public static class ClientStacks
{
    /// <summary>Debian's Python with Debian's packages (the python3 first on PATH may be another install without them).</summary>
    public const string Python = "/usr/bin/python3";

    /// <summary>Node.js as PATH finds it (Debian's nodejs, or any of version 20.18.1 or later).</summary>
    public const string Node = "node";

    public static ClientStack Parse(string value) =>
        Enum.GetValues<ClientStack>().Where(s => s.Name() == value.Trim().ToLowerInvariant()).Cast<ClientStack?>().SingleOrDefault()
        ?? throw new FormatException($"'{value}' is not a client: {string.Join(", ", Enum.GetValues<ClientStack>().Select(Name))}");

    public static string Name(this ClientStack stack) => stack.ToString().ToLowerInvariant();

    /// <summary>Whether the stack has a SignalR client: ours, and Node's @microsoft/signalr; JMeter and Python make no hub cells.</summary>
    public static bool CallsHubs(this ClientStack stack) => stack is ClientStack.Dotnet or ClientStack.Node;

    /// <summary>
    /// The stack's program with its arguments: tools/stacks/&lt;stack&gt;/ run by its interpreter. It reads a cell's job on
    /// its standard input (<see cref="Lab.Stacks.StackRunner"/>), or prints the stack's versions given <c>--versions</c>.
    /// </summary>
    public static (string FileName, IReadOnlyList<string> Arguments) Program(ClientStack stack, params string[] arguments)
    {
        var folder = Path.Combine(ProjectPaths.RootOrCurrent, "tools", "stacks", stack.Name());
        return stack switch
        {
            ClientStack.Jmeter => ("/bin/bash", [Path.Combine(folder, "cell.sh"), .. arguments]),
            ClientStack.Python => (Python, [Path.Combine(folder, "cell.py"), .. arguments]),
            ClientStack.Node => (Node, [Path.Combine(folder, "cell.mjs"), .. arguments]),
            _ => throw new ArgumentOutOfRangeException(nameof(stack), stack, "runs in the command's own process"),
        };
    }

    /// <summary>
    /// The stack's versions, as its program says with --versions ("Python 3.11.2, requests 2.28.1, grpcio 1.51.1, protobuf
    /// 4.21.12"), or what it said when it could not run. The JMeter stack compiles its program the first time (a few seconds).
    /// </summary>
    public static StackProbe Probe(ClientStack stack)
    {
        if (stack == ClientStack.Dotnet)
        {
            return new StackProbe(stack, $".NET {Environment.Version}", null);
        }

        var (fileName, arguments) = Program(stack, "--versions");
        var (versions, problem) = AskVersions(fileName, arguments);
        return new StackProbe(stack, versions, problem);
    }

    /// <summary>What a stack's program prints given --versions, or why it could not say (its last word, or that it did not start or answer).</summary>
    public static (string? Versions, string? Problem) AskVersions(string fileName, IReadOnlyList<string> arguments)
    {
        try
        {
            using var process = Process.Start(new ProcessStartInfo(fileName, arguments) { RedirectStandardOutput = true, RedirectStandardError = true });
            if (process is null)
            {
                return (null, $"{fileName} did not start");
            }

            var output = process.StandardOutput.ReadToEndAsync();
            var error = process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(TimeSpan.FromMinutes(1)))
            {
                process.Kill(entireProcessTree: true);
                return (null, "--versions did not answer in a minute");
            }

            var said = output.Result.Trim();
            return process.ExitCode == 0 && said.Length > 0
                ? (said, null)
                : (null, Problem(said) ?? Problem(error.Result) ?? $"exit code {process.ExitCode}");
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            return (null, $"{fileName}: {e.Message}");
        }
    }

    /// <summary>
    /// The Debian packages the stack needs, as its debian-packages file lists them (tools/stacks/&lt;stack&gt;/): the one
    /// install line that CI, this message and the docs give.
    /// </summary>
    public static string DebianPackages(ClientStack stack) => DebianPackages(stack.Name());

    /// <summary>The Debian packages tools/stacks/&lt;folder&gt;/debian-packages lists, on one line.</summary>
    public static string DebianPackages(string folder)
    {
        var file = Path.Combine(ProjectPaths.RootOrCurrent, "tools", "stacks", folder, "debian-packages");
        return File.Exists(file)
            ? string.Join(' ', File.ReadLines(file).Where(line => !line.StartsWith('#')).SelectMany(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries)))
            : $"the packages {file} lists (not found here)";
    }

    /// <summary>
    /// The line that says what went wrong: the last that names an error (Python's and Node's last lines are a traceback's
    /// end and Node's version), else the last; cell.sh's "error " prefix dropped.
    /// </summary>
    private static string? Problem(string text)
    {
        var lines = text.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        var line = lines.LastOrDefault(l => l.Contains("Error", StringComparison.Ordinal)) ?? lines.LastOrDefault();
        return line?.StartsWith("error ", StringComparison.Ordinal) == true ? line["error ".Length..] : line;
    }

    /// <summary>The setup table's row.</summary>
    public static string Describe(ClientStack stack, string? versions) => stack switch
    {
        ClientStack.Jmeter =>
            $"jmeter (--client jmeter): each cell in a JVM of its own running JMeter's engine on a plan built in code ({versions ?? "versions not read"}): " +
            "JMeter's HTTP sampler on HttpClient 4 for REST and GraphQL (HTTP/1.1 on both transports; over HTTPS it accepts the service's certificate " +
            "unchecked, as JMeter does), and for gRPC a Java sampler over grpc-java that prints each answer as JSON inside the timed sample, as the " +
            "jmeter-grpc-request plugin does; JMeter's own elapsed times (whole milliseconds, averaged over an iteration's calls) after 3 s of the " +
            "JVM's warm-up; a read's every answer equal to the first, which the .NET client's own code reads and checks, as it checks each of a " +
            "create's answers. No server cost or bytes on the wire are read",
        ClientStack.Python =>
            $"python (--client python): each cell in a Python process of its own ({versions ?? "versions not read"}): requests for REST and GraphQL " +
            "(HTTP/1.1 on both transports), grpcio for gRPC (unary calls); each call timed to its answer decoded (json.loads, the reply parsed), " +
            "a read's every answer equal to the first, which the .NET client's own code reads and checks, as it checks each of a create's answers. " +
            "No server cost or bytes on the wire are read",
        ClientStack.Node =>
            $"node (--client node): each cell in a Node.js process of its own ({versions ?? "versions not read"}): undici for REST and GraphQL " +
            "(HTTP/1.1 on both transports), @grpc/grpc-js for gRPC (unary calls), @microsoft/signalr for SignalR's hub (JSON and MessagePack over a " +
            "WebSocket by ws, negotiation skipped; no streams); each call timed to its answer decoded (JSON.parse, the reply as @grpc/proto-loader's " +
            "deserializer gives it, the hub protocol's result) after a second of V8's warm-up; a read's every answer equal to the first, which the .NET " +
            "client's own code reads and checks, as it checks each of a create's answers. No server cost or bytes on the wire are read",
        _ => $"dotnet (--client dotnet): this project's clients in the command's own process ({versions ?? $".NET {Environment.Version}"})",
    };
}
