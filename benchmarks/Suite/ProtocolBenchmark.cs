using System.Reflection;
using BenchmarkDotNet.Attributes;
using ProtocolBench.Shared.Clients;

namespace ProtocolBench.Benchmarks.Suite;

/// <summary>
/// One protocol over one transport per case. GlobalSetup connects, measures the bytes on the wire of the operation about
/// to be timed (after warming the connection, so TCP, TLS and HTTP/2 setup are not in it) and verifies full responses
/// once per cell; the timed methods then check every response cheaply before returning it.
/// </summary>
public abstract class ProtocolBenchmark
{
    private const int WireWarmups = 2;

    [ParamsSource(nameof(Protocols))]
    public Protocol Protocol { get; set; }

    [ParamsAllValues]
    public Transport Transport { get; set; }

    /// <summary>The protocols this class measures (all three unless an operation exists only on some).</summary>
    public virtual IEnumerable<Protocol> Protocols => [Protocol.Rest, Protocol.Grpc, Protocol.GraphQL];

    protected IProtocolClient Client { get; private set; } = null!;

    protected virtual WireCounter Wire => Client.Wire;

    [GlobalSetup]
    public async Task GlobalSetupAsync()
    {
        BenchmarkContext.EnsureServiceUp(Protocol);
        await ConnectAsync();
        foreach (var method in MethodsToMeasure())
        {
            await MeasureWireBytesAsync(method);
        }

        if (!BenchmarkContext.IsVerified(BenchmarkType, Protocol, Transport))
        {
            await VerifyAsync();
            BenchmarkContext.MarkVerified(BenchmarkType, Protocol, Transport);
        }
    }

    [GlobalCleanup]
    public async Task GlobalCleanupAsync()
    {
        try
        {
            await CleanupAsync();
        }
        finally
        {
            await DisconnectAsync();
        }
    }

    protected virtual Task ConnectAsync()
    {
        Client = BenchmarkContext.CreateClient(Protocol, Transport);
        return Task.CompletedTask;
    }

    protected virtual ValueTask DisconnectAsync() => Client?.DisposeAsync() ?? ValueTask.CompletedTask;

    /// <summary>Full comparison of every operation's response (hashes, every element), once per cell.</summary>
    protected abstract Task VerifyAsync();

    protected virtual Task CleanupAsync() => Task.CompletedTask;

    /// <summary>Serial operations averaged for the wire bytes; bytes per operation are nearly constant, so a few suffice.</summary>
    protected virtual int WireSamples => 5;

    /// <summary>This class as written: the in-process toolchain runs a generated subclass of it.</summary>
    private Type BenchmarkType
    {
        get
        {
            var type = GetType();
            while (type.Assembly.IsDynamic && type.BaseType is not null)
            {
                type = type.BaseType;
            }

            return type;
        }
    }

    private IEnumerable<MethodInfo> MethodsToMeasure()
    {
        var current = BenchmarkContext.CurrentCase?.Descriptor;
        if (current is not null && current.Type.IsAssignableFrom(GetType()))
        {
            return [current.WorkloadMethod];
        }

        return BenchmarkType.GetMethods().Where(m => m.GetCustomAttribute<BenchmarkAttribute>() is not null);
    }

    private async Task MeasureWireBytesAsync(MethodInfo method)
    {
        Task Run() => (Task)method.Invoke(this, null)!;

        var fresh = Wire.Total == 0;
        await Run();
        var first = Wire.Total;
        for (var i = 1; i < WireWarmups; i++)
        {
            await Run();
        }

        Wire.Reset();
        var samples = WireSamples;
        for (var i = 0; i < samples; i++)
        {
            await Run();
        }

        var (sent, received) = Wire.Snapshot();
        var perOp = (double)(sent + received) / samples;
        BenchmarkContext.Wire.Record(
            WireTally.Key(BenchmarkType.Name, method.Name, Protocol, Transport),
            new WireSample((double)sent / samples, (double)received / samples, samples, fresh ? (long)Math.Round(first - perOp) : null));
    }
}
