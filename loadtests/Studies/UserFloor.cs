using ProtocolBench.Shared.Domain.Operations;

namespace ProtocolBench.LoadTests.Studies;

/// <summary>
/// The load command's floor (--scenarios floor): GET /baseline on REST's port, fixed bytes with no work behind them, sent by
/// the users as any scenario's requests are. Through the .NET driver or Locust's users it is what the engine itself costs a
/// call before any protocol, so the two engines' cells can be read above their own floors (docs/load-studies.md).
/// </summary>
public static class UserFloor
{
    public static readonly Scenario Scenario = Catalogue.Floor with
    {
        Label = "Floor: GET /baseline on REST's port (fixed 23 B), the engine's own cost per call",
        Protocols = [Protocol.Rest],
        Request = static (client, _, cancellationToken) =>
            client is Client baseline ? baseline.GetAsync(cancellationToken) : throw new NotSupportedException("the floor is sent by UserFloor.Client"),
    };

    /// <summary>The scenario a name on the command line means: the floor, or a scenario of the catalogue that sends a request.</summary>
    public static Scenario? Find(string name) =>
        name.Equals(Scenario.Name, StringComparison.OrdinalIgnoreCase) ? Scenario : Catalogue.Find(name) is { HasRequest: true } found ? found : null;

    /// <summary>The .NET driver's sender of the floor: REST's HTTP handler (kept connections, exact trust), counted on the wire.</summary>
    public sealed class Client(Transport transport, ClientOptions options) : HttpProtocolClient(Protocol.Rest, transport, options)
    {
        public override bool Offers(Operation operation) => false;

        public override Task<TResult> CallAsync<TResult>(OperationCall<TResult> call, CancellationToken cancellationToken = default) =>
            throw new NotSupportedException($"the floor's client sends GET /baseline only, not {call.Operation}");

        /// <summary>GET /baseline: its body, or a <see cref="ProtocolClientException"/> naming the status that was not 200.</summary>
        public async Task<object> GetAsync(CancellationToken cancellationToken)
        {
            using var request = Http.Request(HttpMethod.Get, "baseline", null);
            using var response = await Http.SendAsync(request, cancellationToken).ConfigureAwait(false);
            var status = (int)response.StatusCode;
            return response.IsSuccessStatusCode
                ? await response.Content.ReadAsByteArrayAsync(cancellationToken).ConfigureAwait(false)
                : throw new ProtocolClientException($"HTTP_{status}", $"GET /baseline answered {status}", $"HTTP {status}");
        }
    }
}
