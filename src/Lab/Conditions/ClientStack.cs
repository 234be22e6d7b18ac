namespace ProtocolBench.Lab.Conditions;

/// <summary>
/// --client: whose client makes the benchmark's calls. This project's .NET client (the default), or a paper's kind of
/// client in its own process: Kamiński et al.'s Python (requests over HTTP/1.1, grpcio). A stack's answers are checked
/// as the .NET client's are (<see cref="PortableCall"/>).
/// </summary>
public enum ClientStack
{
    Dotnet,
    Python,
}

public static class ClientStacks
{
    /// <summary>Debian's Python with Debian's packages (the python3 first on PATH may be another install without them).</summary>
    public const string Python = "/usr/bin/python3";

    private const string PythonInstall = "apt-get install python3 python3-requests python3-grpcio python3-protobuf";

    public static ClientStack Parse(string value) => value.Trim().ToLowerInvariant() switch
    {
        "dotnet" => ClientStack.Dotnet,
        "python" => ClientStack.Python,
        _ => throw new FormatException($"'{value}' is not a client: dotnet or python"),
    };

    public static string Name(this ClientStack stack) => stack.ToString().ToLowerInvariant();

    /// <summary>What to say when <see cref="Versions"/> finds the stack missing: what it needs and the line that installs it.</summary>
    public static string Missing(ClientStack stack) =>
        $"--client {stack.Name()} calls through Debian's Python 3 with requests, grpcio and protobuf, which {Python} cannot import here: {PythonInstall}";

    /// <summary>"Python 3.11.2, requests 2.28.1, grpcio 1.51.1, protobuf 4.21.12"; null when the stack cannot run.</summary>
    public static string? Versions(ClientStack stack)
    {
        if (stack == ClientStack.Dotnet)
        {
            return $".NET {Environment.Version}";
        }

        const string script = "import platform, requests, grpc, google.protobuf as p; " +
                              "print(f'Python {platform.python_version()}, requests {requests.__version__}, grpcio {grpc.__version__}, protobuf {p.__version__}')";
        try
        {
            using var process = Process.Start(new ProcessStartInfo(Python, ["-c", script]) { RedirectStandardOutput = true, RedirectStandardError = true });
            if (process is null)
            {
                return null;
            }

            var output = process.StandardOutput.ReadToEndAsync();
            process.StandardError.ReadToEndAsync();
            if (!process.WaitForExit(TimeSpan.FromSeconds(30)))
            {
                process.Kill();
                return null;
            }

            return process.ExitCode == 0 ? output.Result.Trim() : null;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return null;
        }
    }

    /// <summary>The setup table's row.</summary>
    public static string Describe(ClientStack stack, string? versions) => stack switch
    {
        ClientStack.Python =>
            $"python (--client python): each cell in a Python process of its own ({versions ?? "versions not read"}): requests for REST and GraphQL " +
            "(HTTP/1.1 on both transports), grpcio for gRPC (unary calls); each call timed to its answer decoded (json.loads, the reply parsed), " +
            "a read's every answer equal to the first, which the .NET client's own code reads and checks, as it checks each of a create's answers. " +
            "No server cost or bytes on the wire are read",
        _ => $"dotnet (--client dotnet): this project's clients in the command's own process ({versions ?? $".NET {Environment.Version}"})",
    };
}
