using System.Diagnostics.Tracing;
using Microsoft.Diagnostics.NETCore.Client;
using Microsoft.Diagnostics.Tracing;
using Microsoft.Diagnostics.Tracing.Parsers.Clr;

namespace ProtocolBench.Integration.Tests.Infrastructure;

/// <summary>
/// A full, blocking collection in a service, asked of its runtime as dotnet-gcdump asks (EventPipe with the runtime's
/// GCHeapCollect keyword): after it, the service's memory is what is still referenced. Server GC keeps a burst's garbage
/// committed while nothing allocates, so a test whose subject is not the service's own reclamation (MemoryReclaimer,
/// which the tests of rows 60, 78, 84 and 94 wait for) reads memory after one.
/// </summary>
public static class InducedCollection
{
    private const long GcKeyword = 0x1;
    private const long GcHeapCollectKeyword = 0x800000;

    /// <summary>Returns once the service's runtime has run the collection asked for; throws when it has not within 10 s.</summary>
    public static async Task RunAsync(ServiceProcess service, CancellationToken cancellationToken)
    {
        var provider = new EventPipeProvider("Microsoft-Windows-DotNETRuntime", EventLevel.Informational, GcKeyword | GcHeapCollectKeyword);
        using var session = new DiagnosticsClient(service.Id).StartEventPipeSession([provider], requestRundown: false);
        using var source = new EventPipeEventSource(session.EventStream);
        var induced = -1;
        var ended = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        source.Clr.GCStart += e =>
        {
            if (e.Reason is GCReason.Induced or GCReason.InducedNotForced or GCReason.InducedCompacting)
            {
                induced = e.Count;
            }
        };
        source.Clr.GCStop += e =>
        {
            if (e.Count == induced)
            {
                ended.TrySetResult();
            }
        };
        var reading = Task.Factory.StartNew(source.Process, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);
        try
        {
            await ended.Task.WaitAsync(TimeSpan.FromSeconds(10), cancellationToken);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"{service.Spec.Name} (pid {service.Id}) ran no induced collection within 10 s of being asked for one.");
        }
        finally
        {
            await session.StopAsync(CancellationToken.None);
            await reading.WaitAsync(TimeSpan.FromSeconds(5), CancellationToken.None);
        }
    }
}
