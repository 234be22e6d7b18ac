using ProtocolBench.Shared.Domain.Operations;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Every endpoint of every service is bound to an operation of Shared.Domain, whose size its response budget reserves:
/// read from each service's own bindings (<c>--list-operations</c>: REST's mapped actions, gRPC's mapped methods,
/// GraphQL's root fields, the hub's methods). An operation added to the domain and left unbound on a protocol, an
/// endpoint bound to none, or an argument the size reads that the endpoint does not take, fails here.
/// </summary>
public sealed class OperationBindingTests
{
    /// <summary>What a protocol does not offer, by design: files raw are REST's, the PDF as a stream gRPC's and the hub's.</summary>
    private static readonly Dictionary<Protocol, Operation[]> NotOffered = new()
    {
        [Protocol.Rest] = [Operation.StreamPdf],
        [Protocol.Grpc] = [Operation.GetTextFileRaw, Operation.GetPdfRaw],
        [Protocol.GraphQL] = [Operation.GetTextFileRaw, Operation.GetPdfRaw, Operation.StreamPdf],
        [Protocol.SignalR] = [Operation.GetTextFileRaw, Operation.GetPdfRaw],
    };

    public static TheoryData<string> Services => [.. ServiceSpec.All.Select(s => s.Name)];

    [Theory]
    [MemberData(nameof(Services))]
    public async Task EveryOperationIsBoundAndSizedOnEveryProtocol(string service)
    {
        var spec = ServiceSpec.All.Single(s => s.Name == service);
        var dll = spec.AssemblyPath(ProjectPaths.RootOrCurrent, LaunchOptions.BuildConfiguration);
        var listed = await Processes.RunAsync("dotnet", dll, "--list-operations");
        var rows = listed.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(line => line.Split('\t')).ToList();

        Assert.All(rows, row => Assert.True(row is [_, _, "ok"], $"{service}: {string.Join(" | ", row)}"));
        var bound = rows.Select(row => row[1].Split('(')[0]).ToHashSet();
        var expected = Operation.All.Except(NotOffered[spec.Protocol]).Select(o => o.Name).ToHashSet();
        Assert.True(expected.SetEquals(bound),
            $"{service} binds {string.Join(", ", bound.Order())}; expected {string.Join(", ", expected.Order())}");
    }
}
