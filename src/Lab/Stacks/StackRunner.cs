using System.Text.Json;
using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Services;

namespace ProtocolBench.Lab.Stacks;

/// <summary>
/// Makes one cell's calls through another stack's client (--client), in a process of that stack's own
/// (<see cref="ClientStacks.Program"/>: tools/stacks/&lt;stack&gt;/): the job goes in as a line of JSON; the first answer's bytes and each iteration's
/// time per call come back. A warm-up of one iteration's time sizes the calls per iteration (as the .NET cells' are
/// sized), then the measured iterations. The caller checks the answers (<see cref="PortableScenario.CheckAsync"/>): a
/// read's first (the stack compared every later one with it), a create's every one.
/// </summary>
public sealed class StackRunner(ClientStack stack, ClientOptions client)
{
    /// <summary>Longest a cell may take in the stack's process before it is stopped and failed.</summary>
    private static readonly TimeSpan CellTimeout = TimeSpan.FromMinutes(5);

    private readonly (string FileName, IReadOnlyList<string> Arguments) _program = ClientStacks.Program(stack);

    /// <summary>
    /// What the stack's process measured: the answers' bytes (a read's first, every later one equal to it; with
    /// <c>everyAnswer</c> each call's) and each iteration's mean time per call (ns).
    /// </summary>
    public sealed record Measurement(IReadOnlyList<byte[]> Answers, IReadOnlyList<double> Iterations);

    /// <summary>
    /// One cell as the stack makes it: the call over a transport, a new connection for every call or one kept, and
    /// whether every answer goes back (a create's, each with a new id) or only the first (a read's).
    /// </summary>
    public sealed record Cell(PortableCall Call, Transport Transport, bool NewConnection, bool EveryAnswer = false);

    /// <summary>How many iterations, and whether a warm-up sizes them (false: one call, as BenchmarkDotNet's dry job).</summary>
    public sealed record Iterations(int Count, bool WarmUp, TimeSpan Time)
    {
        public static readonly Iterations Once = new(1, false, TimeSpan.Zero);
    }

    /// <summary>Runs the cell's calls; throws <see cref="InvalidDataException"/> with the stack's own words when it failed, <see cref="TimeoutException"/> when it hung.</summary>
    public async Task<Measurement> MeasureAsync(Cell cell, Iterations iterations, CancellationToken cancellationToken)
    {
        using var process = Process.Start(new ProcessStartInfo(_program.FileName, _program.Arguments)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        }) ?? throw new InvalidOperationException($"{_program.FileName} did not start");
        var errors = new LastLines(10);
        process.ErrorDataReceived += (_, e) => errors.Add(e.Data ?? "");
        process.BeginErrorReadLine();
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(CellTimeout);
        try
        {
            await process.StandardInput.WriteLineAsync(Job(cell, iterations));
            process.StandardInput.Close();
            var answers = new List<byte[]>();
            var times = new List<double>();
            while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
            {
                var space = line.IndexOf(' ');
                var (kind, value) = space > 0 ? (line[..space], line[(space + 1)..]) : (line, "");
                switch (kind)
                {
                    case "answer":
                        answers.Add(Convert.FromBase64String(value));
                        break;
                    case "iteration":
                        times.Add(double.Parse(value, CultureInfo.InvariantCulture));
                        break;
                    case "error":
                        throw new InvalidDataException($"{stack.Name()}: {value}");
                }
            }

            await process.WaitForExitAsync(timeout.Token);
            return process.ExitCode == 0 && answers.Count > 0 && times.Count == iterations.Count
                ? new Measurement(answers, times)
                : throw new InvalidDataException($"{stack.Name()} exited {process.ExitCode} after {times.Count} of {iterations.Count} iterations: {errors}");
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutException($"{stack.Name()} took more than {CellTimeout.TotalMinutes:F0} min");
        }
        finally
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
            }
        }
    }

    /// <summary>The job as the stack's program reads it (the same for every stack).</summary>
    private string Job(Cell cell, Iterations iterations)
    {
        var call = cell.Call;
        var addresses = client.Addresses;
        var (http, https) = addresses.Ports(call.Protocol);
        var tls = cell.Transport == Transport.Https;
        var port = tls ? https : http;
        return JsonSerializer.Serialize(new Dictionary<string, object?>
        {
            ["protocol"] = call.HubProtocol is not null ? "signalr" : call.Protocol == Protocol.Grpc ? "grpc" : "http",
            ["hub_protocol"] = call.HubProtocol,
            ["host"] = addresses.Host,
            ["tls_host"] = addresses.TlsHost,
            ["port"] = port,
            ["tls"] = tls,
            // Always the services' address: HTTPS names the certificate's host in SNI and the name check, as the .NET client does.
            ["host_url"] = $"{(tls ? "https" : "http")}://{addresses.Host}:{port}/",
            ["certificate"] = client.TrustedCertificatePath,
            ["method"] = call.Method,
            ["path"] = call.Path,
            ["body"] = call.Body is null ? null : Convert.ToBase64String(call.Body),
            ["content_type"] = call.ContentType,
            ["decode"] = call.IsJson ? "json" : "bytes",
            ["reply_type"] = call.ReplyType,
            ["descriptors"] = PortableCall.Descriptors.Select(Convert.ToBase64String).ToList(),
            ["new_connection"] = cell.NewConnection,
            ["timeout_seconds"] = client.CallTimeout.TotalSeconds,
            ["iterations"] = iterations.Count,
            ["iteration_ns"] = (long)(iterations.Time.TotalMilliseconds * 1_000_000),
            ["warmup"] = iterations.WarmUp,
            ["answers"] = cell.EveryAnswer ? "each" : "first",
        });
    }
}
