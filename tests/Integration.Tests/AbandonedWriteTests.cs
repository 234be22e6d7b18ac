namespace ProtocolBench.Integration.Tests;

/// <summary>
/// Fault table row 89: a client that goes away 0–11 ms after sending a create. EF Core logged the cancelled commit at Error
/// (<c>Database.Transaction[20205]</c>: per 24 creates REST 2, GraphQL 2, gRPC 14, SignalR 1), where a client going away is
/// logged at Debug (row 67), and grpc-dotnet logged a stream reset while it read the request at Error (about 1 in 240).
/// Now a write whose arguments are valid runs to its end (it is committed or not, the next read says which), a reset read
/// is CANCELLED, and nothing is logged at Error. The reset also comes out of Kestrel's AdvanceTo: 120 creates missed it in most
/// runs; 3,000 with both cores busy logged it 4–7 times in each of 3 runs (none since it is covered), so gRPC is sent 480.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class AbandonedWriteTests(SqliteServices fixture)
{
    private static int Creates(Protocol protocol) => protocol == Protocol.Grpc ? 480 : 120;

    public static readonly TheoryData<Protocol> Services = [Protocol.Rest, Protocol.Grpc, Protocol.GraphQL, Protocol.SignalR];

    [Theory]
    [MemberData(nameof(Services))]
    public async Task ACreateWhoseClientLeavesIsKeptOrNotAndNothingIsLoggedAtError(Protocol protocol)
    {
        var service = fixture.Services.Processes.Single(p => p.Spec.Protocol == protocol);
        var rows = await fixture.CountRowsAsync();
        var prefix = $"gone-{protocol}-{Guid.NewGuid():N}"[..24];
        for (var i = 0; i < Creates(protocol); i++)
        {
            await CreateAndLeaveAsync(protocol, $"{prefix}-{i}", TimeSpan.FromMilliseconds(i % 12));
        }

        // A write the client left runs to its end, bounded by the database's command timeout; give them time to.
        await Task.Delay(TimeSpan.FromSeconds(2), Token);
        await using var db = fixture.OpenDatabase();
        var kept = await db.Authors.CountAsync(a => a.Name.StartsWith(prefix), Token);
        TestContext.Current.TestOutputHelper?.WriteLine($"{protocol}: {kept} of {Creates(protocol)} creates kept after their clients left");
        Assert.Equal(rows.Authors + kept, (await fixture.CountRowsAsync()).Authors);
        Assert.False(service.HasExited);
        var errors = service.Tail().Split('\n').Where(line => line.StartsWith("fail:", StringComparison.Ordinal) || line.StartsWith("crit:", StringComparison.Ordinal)).ToList();
        Assert.True(errors.Count == 0, string.Join('\n', errors));
        Assert.NotNull(await fixture.Client(protocol, Transport.Http).CreateAuthorAsync($"{prefix}-after", "PL", Token));
    }

    /// <summary>Sends a create and leaves after <paramref name="after"/>: the HTTP clients cancel (HTTP/1.1 closes the connection, HTTP/2 resets the stream), the hub's client drops its socket.</summary>
    private async Task CreateAndLeaveAsync(Protocol protocol, string name, TimeSpan after)
    {
        if (protocol == Protocol.SignalR)
        {
            var hub = await RawHub.OpenAsync(RawHub.Address(fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http)), "json", Token);
            await hub.SendJsonAsync($"{{\"type\":1,\"invocationId\":\"1\",\"target\":\"CreateAuthor\",\"arguments\":[\"{name}\",\"PL\"]}}", Token);
            await Task.Delay(after, Token);
            hub.Socket.Abort();
            hub.Dispose();
            return;
        }

        using var leave = CancellationTokenSource.CreateLinkedTokenSource(Token);
        leave.CancelAfter(after);
        try
        {
            await fixture.Client(protocol, Transport.Http).CreateAuthorAsync(name, "PL", leave.Token);
        }
        catch (Exception e) when (leave.IsCancellationRequested && !Token.IsCancellationRequested && e is OperationCanceledException or ProtocolClientException)
        {
        }
    }
}
