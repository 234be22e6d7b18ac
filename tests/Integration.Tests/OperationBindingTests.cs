using ProtocolBench.Shared.Hosting.Operations;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Every endpoint of every service is bound to an operation of Shared.Domain, whose size its response budget reserves
/// and whose address the clients call: read from each service's own bindings (<c>--list-operations</c>: REST's mapped
/// actions, gRPC's mapped methods, GraphQL's root fields, the hub's methods). An operation the descriptor places on a
/// protocol and the service does not bind, an endpoint bound to none, one at another address than the descriptor's,
/// or one taking other arguments than the operation's, fails here.
/// </summary>
public sealed class OperationBindingTests
{
    /// <summary>What the descriptor says each protocol offers: the clients call exactly these.</summary>
    private static readonly Dictionary<Protocol, Func<Operation, bool>> Offered = new()
    {
        [Protocol.Rest] = o => o.Rest is not null,
        [Protocol.Grpc] = o => o.Grpc is not null,
        [Protocol.GraphQL] = o => o.GraphQL is not null,
        [Protocol.SignalR] = o => o.OnHub,
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
        var expected = Operation.All.Where(Offered[spec.Protocol]).Select(o => o.Name).ToHashSet();
        Assert.True(expected.SetEquals(bound),
            $"{service} binds {string.Join(", ", bound.Order())}; expected {string.Join(", ", expected.Order())}");
    }

    /// <summary>
    /// The start-up check itself refuses an operation whose description places it on the protocol and that no endpoint
    /// binds (here REST's bindings without Int32 max), and names it; with the binding there is nothing to refuse.
    /// </summary>
    [Fact]
    public void AnOperationDescribedOnAProtocolAndBoundByNoEndpointStopsTheService()
    {
        static OperationBinding Bound(Operation o) => new(o.Name, o, [.. o.Parameters.Select(p => p.Name)], o.Rest!, o.Rest);
        var bindings = Operation.All.Where(o => o.Rest is not null && o != Operation.GetIntMax).Select(Bound).ToList();

        var unbound = Assert.Single(ServedOperations.Unbound(bindings, o => o.Rest));
        Assert.StartsWith("Operation.GetIntMax is described at 'GET api/payloads/int-max' on this protocol, and no endpoint is bound to it", unbound);
        Assert.Empty(ServedOperations.Unbound([.. bindings, Bound(Operation.GetIntMax)], o => o.Rest));
    }

    [Fact]
    public void EveryOperationIsOfferedSomewhereAndSizedByItsOwnParameters()
    {
        Assert.All(Operation.All, o => Assert.True(Offered.Values.Any(offers => offers(o)), $"{o.Name} is offered by no protocol"));
        Assert.All(Operation.All, o => Assert.Empty(o.SizedBy.Except(o.Parameters.Select(p => p.Name))));
    }

    [Fact]
    public void ACallTakesTheOperationsArgumentsInOrderAndOfTheirKinds()
    {
        Assert.Equal("UpdateAuthor(7, null, Poland)", Operation.UpdateAuthor.With(7, null, "Poland").ToString());
        Assert.Equal(7, Operation.UpdateAuthor.With(7, null, "Poland").Arguments.Int("id"));
        Assert.Throws<ArgumentException>(() => Operation.UpdateAuthor.With(7, "Name"));
        Assert.Throws<ArgumentException>(() => Operation.GetAuthor.With("7"));
    }
}
