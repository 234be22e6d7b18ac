using System.Text.Json;
using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Scenarios;
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
        var answers = new List<byte[]>();
        var times = new List<double>();
        var exitCode = await RunAsync(Job(cell, MeasureFields(cell, iterations)), CellTimeout, (kind, value) =>
        {
            switch (kind)
            {
                case "answer":
                    answers.Add(Convert.FromBase64String(value));
                    break;
                case "iteration":
                    times.Add(double.Parse(value, CultureInfo.InvariantCulture));
                    break;
            }
        }, cancellationToken);
        return exitCode == 0 && answers.Count > 0 && times.Count == iterations.Count
            ? new Measurement(answers, times)
            : throw new InvalidDataException($"{stack.Name()} exited {exitCode} after {times.Count} of {iterations.Count} iterations");
    }

    /// <summary>
    /// The load command's paced stream (--client), as the stack sends it from one thread: <see cref="Pacing.WarmUp"/>
    /// requests back to back, a pause of <see cref="Pacing.Settle"/>, then <see cref="Pacing.Count"/> requests on a fixed
    /// schedule of <see cref="Pacing.Rate"/> a second.
    /// </summary>
    public sealed record Pacing(double Rate, int Count, int WarmUp, TimeSpan Settle);

    /// <summary>
    /// One paced request as the stack timed it (ms): how late it started against the schedule and how long it took; when
    /// it failed, how (<see cref="Code"/>: HTTP_404, NOT_FOUND, timeout, transport) and the stack's words; when its answer
    /// differs from the first, that answer, to be checked on its own.
    /// </summary>
    public sealed record PacedRequest(int Index, double LateMs, double ElapsedMs, OutcomeKind Outcome, string? Code, string? Message, byte[]? Answer);

    /// <summary>What the paced stream gave: the first good answer (null when none came) and every paced request.</summary>
    public sealed record PacedStream(byte[]? First, IReadOnlyList<PacedRequest> Requests);

    /// <summary>
    /// Runs the paced stream, handing each request to <paramref name="onRequest"/> as it ends; throws <see cref="InvalidDataException"/>
    /// when the stack failed or stopped early, <see cref="TimeoutException"/> when it hung.
    /// </summary>
    public async Task<PacedStream> PaceAsync(Cell cell, Pacing pacing, Action<PacedRequest> onRequest, CancellationToken cancellationToken)
    {
        byte[]? first = null;
        var requests = new List<PacedRequest>();
        var fields = new Dictionary<string, object?>
        {
            ["mode"] = "paced",
            ["new_connection"] = cell.NewConnection,
            ["rate"] = pacing.Rate,
            ["count"] = pacing.Count,
            ["warmup_count"] = pacing.WarmUp,
            ["settle_ms"] = (long)pacing.Settle.TotalMilliseconds,
        };
        // The stream's own length, and every request's limit once more.
        var limit = TimeSpan.FromSeconds(pacing.Count / pacing.Rate) + pacing.Settle + CellTimeout;
        var exitCode = await RunAsync(Job(cell, fields), limit, (kind, value) =>
        {
            if (kind == "answer")
            {
                first ??= Convert.FromBase64String(value);
            }
            else if (kind == "sample")
            {
                var request = ReadRequest(value);
                requests.Add(request);
                onRequest(request);
            }
        }, cancellationToken);
        return exitCode == 0 && requests.Count == pacing.Count
            ? new PacedStream(first, requests)
            : throw new InvalidDataException($"{stack.Name()} exited {exitCode} after {requests.Count} of {pacing.Count} paced requests");
    }

    /// <summary>"INDEX LATE_MS ELAPSED_MS ok [BASE64]" or "INDEX LATE_MS ELAPSED_MS failed|timedout CODE MESSAGE".</summary>
    private PacedRequest ReadRequest(string line)
    {
        var parts = line.Split(' ', 6);
        if (parts.Length < 4)
        {
            throw new InvalidDataException($"{stack.Name()} wrote a sample this harness cannot read: {line}");
        }

        var index = int.Parse(parts[0], CultureInfo.InvariantCulture);
        var (late, elapsed) = (double.Parse(parts[1], CultureInfo.InvariantCulture), double.Parse(parts[2], CultureInfo.InvariantCulture));
        return parts[3] switch
        {
            "ok" => new PacedRequest(index, late, elapsed, OutcomeKind.Ok, null, null, parts.Length > 4 ? Convert.FromBase64String(parts[4]) : null),
            "failed" or "timedout" => new PacedRequest(
                index, late, elapsed, parts[3] == "failed" ? OutcomeKind.Failed : OutcomeKind.TimedOut, parts.ElementAtOrDefault(4) ?? "failed",
                parts.ElementAtOrDefault(5), null),
            _ => throw new InvalidDataException($"{stack.Name()} wrote a sample this harness cannot read: {line}"),
        };
    }

    /// <summary>
    /// Starts the stack's program, writes the job, hands each line it writes to <paramref name="onLine"/> (its kind and the
    /// rest) and returns its exit code; an <c>error</c> line throws <see cref="InvalidDataException"/> with the stack's words.
    /// </summary>
    private async Task<int> RunAsync(string job, TimeSpan limit, Action<string, string> onLine, CancellationToken cancellationToken)
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
        timeout.CancelAfter(limit);
        try
        {
            await process.StandardInput.WriteLineAsync(job);
            process.StandardInput.Close();
            while (await process.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
            {
                var space = line.IndexOf(' ');
                var (kind, value) = space > 0 ? (line[..space], line[(space + 1)..]) : (line, "");
                if (kind == "error")
                {
                    throw new InvalidDataException($"{stack.Name()}: {value}");
                }

                onLine(kind, value);
            }

            await process.WaitForExitAsync(timeout.Token);
            return process.ExitCode == 0 ? 0 : throw new InvalidDataException($"{stack.Name()} exited {process.ExitCode}: {errors}");
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutException($"{stack.Name()} took more than {limit.TotalMinutes:F0} min");
        }
        finally
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
            }
        }
    }

    private static Dictionary<string, object?> MeasureFields(Cell cell, Iterations iterations) => new()
    {
        ["new_connection"] = cell.NewConnection,
        ["iterations"] = iterations.Count,
        ["iteration_ns"] = (long)(iterations.Time.TotalMilliseconds * 1_000_000),
        ["warmup"] = iterations.WarmUp,
        ["answers"] = cell.EveryAnswer ? "each" : "first",
    };

    /// <summary>The job as the stack's program reads it (the same for every stack): the call, and the mode's own fields.</summary>
    private string Job(Cell cell, Dictionary<string, object?> fields)
    {
        var job = Fields(cell.Call, cell.Transport, client);
        foreach (var (name, value) in fields)
        {
            job[name] = value;
        }

        return JsonSerializer.Serialize(job);
    }

    /// <summary>
    /// What every stack's program reads of a call (and the load command's Locust workers too): where the service is, how to
    /// trust it, the request's bytes and how to read the answer.
    /// </summary>
    public static Dictionary<string, object?> Fields(PortableCall call, Transport transport, ClientOptions client)
    {
        var addresses = client.Addresses;
        var (http, https) = addresses.Ports(call.Protocol);
        var tls = transport == Transport.Https;
        var port = tls ? https : http;
        return new Dictionary<string, object?>
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
            ["timeout_seconds"] = client.CallTimeout.TotalSeconds,
        };
    }
}
