using System.Collections.Concurrent;
using BenchmarkDotNet.Running;
using ProtocolBench.Shared.Clients;
using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// What the orchestrating program and the benchmark classes share during one run. Shared memory works because the suite
/// runs with BenchmarkDotNet's in-process toolchain (see BenchConfig): the classes run in this very process.
/// </summary>
public static class BenchmarkContext
{
    private static readonly Lazy<PayloadFiles> LazyFiles = new(() =>
    {
        var files = PayloadFiles.Load();
        return files.IsAvailable ? files : throw new InvalidOperationException(files.Error);
    });

    private static readonly ConcurrentDictionary<string, bool> Verified = new();

    public static ClientOptions ClientOptions { get; set; } = new();

    /// <summary>Why the service of a protocol cannot be used (it exited), or null while it can.</summary>
    public static Func<Protocol, string?> ServiceProblem { get; set; } = _ => null;

    /// <summary>The case BenchmarkDotNet is about to run (set by the progress reporter just before its GlobalSetup).</summary>
    public static BenchmarkCase? CurrentCase { get; set; }

    public static WireTally Wire { get; } = new();

    /// <summary>The fixture files every service serves, for byte-exact comparison.</summary>
    public static PayloadFiles Files => LazyFiles.Value;

    public static IProtocolClient CreateClient(Protocol protocol, Transport transport) =>
        ProtocolClients.Create(protocol, transport, ClientOptions);

    public static void EnsureServiceUp(Protocol protocol)
    {
        if (ServiceProblem(protocol) is { } problem)
        {
            throw new InvalidOperationException($"Not measured: {problem}");
        }
    }

    /// <summary>Full verification runs once per (class, protocol, transport), not once per method.</summary>
    public static bool IsVerified(Type type, Protocol protocol, Transport transport) =>
        Verified.ContainsKey($"{type.Name}.{protocol}.{transport}");

    public static void MarkVerified(Type type, Protocol protocol, Transport transport) =>
        Verified[$"{type.Name}.{protocol}.{transport}"] = true;
}

/// <summary>Bytes on the wire per operation, measured in each cell's GlobalSetup and read by the report columns.</summary>
public sealed class WireTally
{
    private readonly ConcurrentDictionary<string, WireSample> _samples = new();

    public static string Key(string type, string method, Protocol protocol, Transport transport) => $"{type}.{method}.{protocol}.{transport}";

    public static string Key(BenchmarkCase benchmarkCase) => Key(
        benchmarkCase.Descriptor.Type.Name,
        benchmarkCase.Descriptor.WorkloadMethod.Name,
        (Protocol)benchmarkCase.Parameters["Protocol"],
        (Transport)benchmarkCase.Parameters["Transport"]);

    public void Record(string key, WireSample sample) => _samples[key] = sample;

    public WireSample? Find(string key) => _samples.TryGetValue(key, out var sample) ? sample : null;

    public WireSample? Find(BenchmarkCase benchmarkCase) => Find(Key(benchmarkCase));
}

/// <param name="SentPerOp">Request bytes per operation at the socket (TLS records on HTTPS).</param>
/// <param name="ReceivedPerOp">Response bytes per operation at the socket.</param>
/// <param name="Operations">How many serial operations the averages come from.</param>
/// <param name="ConnectionSetup">Bytes of opening the connection (TCP payload: TLS handshake, HTTP/2 preface and settings), when seen.</param>
public sealed record WireSample(double SentPerOp, double ReceivedPerOp, int Operations, long? ConnectionSetup)
{
    public double TotalPerOp => SentPerOp + ReceivedPerOp;
}
