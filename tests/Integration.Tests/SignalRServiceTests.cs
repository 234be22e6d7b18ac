using System.Net.WebSockets;
using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Integration.Tests;

/// <summary>
/// What is particular to the fourth service: its MessagePack hub protocol answers what JSON answers, scenario by
/// scenario (the parity tests hold both against REST), the PDF arrives whole as a stream of chunks, the hub takes
/// WebSockets only, and a message over the limit costs its sender the connection but nobody else anything.
/// </summary>
[Collection(SqliteCollection.Name)]
public sealed class SignalRServiceTests(SqliteServices fixture)
{
    public static readonly TheoryData<Transport> Transports = [Transport.Http, Transport.Https];

    private IProtocolClient Json(Transport transport) => fixture.Client(Protocol.SignalR, transport);

    private IProtocolClient MessagePack(Transport transport) => fixture.Client(Protocol.SignalRMessagePack, transport);

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task MessagePackAnswersWhatJsonAnswers(Transport transport)
    {
        var packed = MessagePack(transport);
        var json = Json(transport);
        foreach (var scenario in Catalogue.All.Where(s => s.HasRequest && s.AppliesTo(Protocol.SignalR) && !s.Creates))
        {
            var expected = await scenario.CallAsync(json, "", Token);
            var actual = await scenario.CallAsync(packed, "", Token);
            if (expected is IReadOnlyList<AuthorDto> authors)
            {
                Assert.Equal(authors, (IReadOnlyList<AuthorDto>)actual);
            }
            else
            {
                Assert.Equal(expected, actual);
            }

            if (scenario.Verify is { } verify)
            {
                await verify(packed, Token);
            }
        }

        Assert.Equal(Expected.Sha256(Expected.Pdf), Expected.Sha256(await packed.GetPdfBinaryAsync(Token)!));
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task MessagePackWritesAndRefusesLikeJson(Transport transport)
    {
        var packed = MessagePack(transport);
        var before = await fixture.CountRowsAsync();
        var created = await packed.CreateAuthorAsync($"pb-test-signalr-{transport} ✓", "Iceland", Token);
        Assert.Equal(created, await Json(transport).GetAuthorAsync(created.Id, Token));
        Assert.Equal(new AuthorDto(created.Id, "Renamed", "Norway", []), await packed.UpdateAuthorAsync(created.Id, "Renamed", "Norway", Token));
        await packed.DeleteAuthorAsync(created.Id, Token);
        Assert.Equal(before, await fixture.CountRowsAsync());

        foreach (var call in new Func<IProtocolClient, Task>[]
                 {
                     c => c.GetAuthorAsync(999_999, Token),
                     c => c.GetIntsAsync(Limits.IntsCountMax + 1, Token),
                     c => c.CloneAsync(null, 1, Token),
                     c => c.SearchAuthorsAsync("", null, Token),
                 })
        {
            var expected = await Assert.ThrowsAsync<ProtocolClientException>(() => call(Json(transport)));
            var actual = await Assert.ThrowsAsync<ProtocolClientException>(() => call(packed));
            Assert.Equal((expected.Code, expected.Message), (actual.Code, actual.Message));
            Assert.StartsWith("SignalR ", actual.ProtocolStatus);
        }
    }

    /// <summary>The hub error names the code and the field first, as the other protocols' errors carry them.</summary>
    [Fact]
    public async Task AHubErrorCarriesTheCodeTheFieldAndTheDomainsMessage()
    {
        var error = await Assert.ThrowsAsync<ProtocolClientException>(() => Json(Transport.Http).GetIntsAsync(-1, Token));
        Assert.Equal("INVALID_ARGUMENT", error.Code);
        Assert.Equal("SignalR INVALID_ARGUMENT", error.ProtocolStatus);
        var inner = Assert.IsType<Microsoft.AspNetCore.SignalR.HubException>(error.InnerException);
        Assert.StartsWith("INVALID_ARGUMENT count: ", inner.Message, StringComparison.Ordinal);
    }

    /// <summary>Long polling and server-sent events are not offered: a plain GET of the hub is refused, an upgrade is taken.</summary>
    [Fact]
    public async Task TheHubTakesWebSocketsOnly()
    {
        using var http = new HttpClient { BaseAddress = fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http), Timeout = TimeSpan.FromSeconds(10) };
        using var negotiate = await http.PostAsync("hub/negotiate?negotiateVersion=1", null, Token);
        Assert.Equal(HttpStatusCode.OK, negotiate.StatusCode);
        var offered = await negotiate.Content.ReadAsStringAsync(Token);
        Assert.Contains("\"WebSockets\"", offered);
        Assert.DoesNotContain("LongPolling", offered);
        Assert.DoesNotContain("ServerSentEvents", offered);

        using var hub = await RawHubAsync();
        Assert.Contains("\"result\":2147483647", await hub.InvokeAsync("1", "\"target\":\"GetIntMax\",\"arguments\":[]", Token));
        await hub.Socket.CloseAsync(WebSocketCloseStatus.NormalClosure, null, Token);
    }

    /// <summary>
    /// What a client this project did not write may send: a value of the wrong type, a missing argument, an unknown method.
    /// Each is answered with an error that says so, read as INVALID_ARGUMENT (UNIMPLEMENTED for the method, as on gRPC),
    /// the service logs no error for any of them, and the socket keeps serving.
    /// </summary>
    [Fact]
    public async Task WrongArgumentsAndUnknownMethodsAreTheClientsMistakeAndLoggedAsSuch()
    {
        using var hub = await RawHubAsync();
        var cases = new (string Invocation, string Code)[]
        {
            ("\"target\":\"GetInts\",\"arguments\":[\"abc\"]", "INVALID_ARGUMENT"),
            ("\"target\":\"GetInts\",\"arguments\":[1e400]", "INVALID_ARGUMENT"),
            ("\"target\":\"Clone\",\"arguments\":[]", "INVALID_ARGUMENT"),
            ("\"target\":\"GetAuthor\",\"arguments\":[99999999999]", "INVALID_ARGUMENT"),
            ("\"target\":\"DropTables\",\"arguments\":[]", "UNIMPLEMENTED"),
        };
        for (var i = 0; i < cases.Length; i++)
        {
            var answer = await hub.InvokeAsync($"{i + 1}", cases[i].Invocation, Token);
            var error = JsonNode.Parse(answer!)!["error"]!.GetValue<string>();
            var code = HubErrorMessage.Translate(new Microsoft.AspNetCore.SignalR.HubException(error)).Code;
            Assert.True(code == cases[i].Code, $"{cases[i].Invocation}: {code} from \"{error}\"");
            Assert.DoesNotContain("   at ", error);
            // Row 81: no exception's type or parser's message, only the code the hub's own HubException carries, first.
            Assert.StartsWith(cases[i].Code + " ", error, StringComparison.Ordinal);
            Assert.DoesNotContain("Exception", error);
        }

        Assert.Contains("\"result\":2147483647", await hub.InvokeAsync("99", "\"target\":\"GetIntMax\",\"arguments\":[]", Token));
        AssertNoErrorLogged();
        await hub.Socket.CloseAsync(WebSocketCloseStatus.NormalClosure, null, Token);
    }

    /// <summary>
    /// Fault table row 77: a hub message that is not JSON, or nests deeper than JSON may, cannot be answered (it has no
    /// invocation id to answer): SignalR closes its sender's connection. Nobody else notices and nothing is logged at Error.
    /// </summary>
    [Theory]
    [InlineData("{\"type\":1,\"invocationId\":\"1\",\"target\":\"GetIntMax\",\"arguments\":[}")]
    [InlineData("not json at all")]
    [InlineData("{\"type\":1,\"invocationId\":\"1\",\"target\":\"GetInts\",\"arguments\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}")]
    public async Task AHubMessageThatDoesNotParseEndsOnlyItsSendersConnection(string message)
    {
        var bystander = Json(Transport.Http);
        Assert.Equal(int.MaxValue, await bystander.GetIntMaxAsync(Token));
        using var hub = await RawHubAsync();
        var socket = hub.Socket;
        await hub.SendJsonAsync(message, Token);

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(Token);
        timeout.CancelAfter(TimeSpan.FromSeconds(10));
        var buffer = new byte[4096];
        var closed = false;
        while (!closed)
        {
            try
            {
                closed = (await socket.ReceiveAsync(buffer, timeout.Token)).MessageType == WebSocketMessageType.Close;
            }
            catch (WebSocketException)
            {
                closed = true;
            }
        }

        Assert.Equal(int.MaxValue, await bystander.GetIntMaxAsync(Token));
        AssertNoErrorLogged();
    }

    /// <summary>A WebSocket to the hub after the JSON protocol's handshake, as any SignalR client opens it.</summary>
    private Task<RawHub> RawHubAsync() => RawHub.OpenAsync(RawHub.Address(fixture.Addresses.BaseUri(Protocol.SignalR, Transport.Http)), "json", Token);

    /// <summary>A message over 1 MiB (the request-body limit of the other services) closes its sender's socket only.</summary>
    [Fact]
    public async Task AMessageOverTheLimitEndsOnlyItsOwnConnection()
    {
        await using var sender = new SignalRProtocolClient(Protocol.SignalR, Transport.Http, fixture.ClientOptions);
        var bystander = Json(Transport.Http);
        Assert.Equal(int.MaxValue, await bystander.GetIntMaxAsync(Token));
        var before = await fixture.CountRowsAsync();

        var tooLarge = new string('a', Limits.RequestBodyMaxBytes + 1);
        await Assert.ThrowsAnyAsync<Exception>(() => sender.CreateAuthorAsync(tooLarge, "Poland", Token));

        Assert.Equal(int.MaxValue, await bystander.GetIntMaxAsync(Token));
        Assert.Equal(int.MaxValue, await sender.GetIntMaxAsync(Token));
        Assert.Equal(before, await fixture.CountRowsAsync());
        Assert.Equal(PayloadOperations.Sample, await sender.GetSampleAsync(Token));
        AssertNoErrorLogged();
    }

    private void AssertNoErrorLogged()
    {
        var service = fixture.Services.Processes.Single(p => p.Spec.Protocol == Protocol.SignalR);
        Assert.DoesNotContain("fail:", service.Tail());
        Assert.DoesNotContain("crit:", service.Tail());
    }
}
