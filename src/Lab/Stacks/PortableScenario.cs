using ProtocolBench.Lab.Conditions;
using ProtocolBench.Lab.Scenarios;

namespace ProtocolBench.Lab.Stacks;

/// <summary>
/// A scenario as a client of another stack makes it (--client): the call it sends, recorded from the scenario's own
/// request, and an answer that stack received, read by this project's client code (<see cref="PortableCall.Read"/>) and
/// then checked by the scenario's check and its full verification, as the .NET client's answers are.
/// </summary>
public static class PortableScenario
{
    /// <summary>
    /// The call the scenario sends over the protocol (the floor: GET /baseline on the service's own port); null when it is
    /// not one request and one answer (a gRPC stream).
    /// </summary>
    public static async Task<PortableCall?> RecordAsync(Scenario scenario, Protocol protocol, string marker)
    {
        if (scenario.Group == ScenarioGroup.Floor)
        {
            return Floor(protocol);
        }

        var recorder = new Replay(protocol, answer: null);
        try
        {
            await scenario.CallAsync(recorder, marker, CancellationToken.None);
        }
        catch (Replay.RecordedException)
        {
        }

        return recorder.Recorded;
    }

    /// <summary>
    /// The call the stack sends for the scenario over the protocol, or why it cannot make it (a hub without a SignalR
    /// client in the stack, a gRPC stream) as the reports list it.
    /// </summary>
    public static async Task<(PortableCall? Call, string? CannotMake)> ForAsync(ClientStack stack, Scenario scenario, Protocol protocol, string marker)
    {
        if (protocol is Protocol.SignalR or Protocol.SignalRMessagePack && !stack.CallsHubs())
        {
            return (null, $"the {stack.Name()} stack has no SignalR client yet");
        }

        return await RecordAsync(scenario, protocol, marker) is { } call
            ? (call, null)
            : (null, $"{Display.Of(protocol)} sends it as a stream, which the {stack.Name()} stack does not read yet");
    }

    /// <summary>Reads and checks an answer to <see cref="RecordAsync"/>'s call and returns it read; throws what the reading or the checks throw.</summary>
    public static async Task<object> CheckAsync(Scenario scenario, Protocol protocol, string marker, byte[] answer)
    {
        if (scenario.Group == ScenarioGroup.Floor)
        {
            // Plain HTTP below every protocol: nothing to read, the answer's bytes are what the floor checks.
            scenario.Check(answer, marker);
            return answer;
        }

        var replay = new Replay(protocol, answer);
        var read = await scenario.CallAsync(replay, marker, CancellationToken.None);
        if (scenario.Verify is { } verify)
        {
            await verify(replay, CancellationToken.None);
        }

        return read;
    }

    /// <summary>GET /baseline on the protocol's service's own port: the floor as every stack sends it.</summary>
    public static PortableCall Floor(Protocol protocol) => new(protocol, "GET", "baseline", null, null, null, IsJson: false);

    /// <summary>An answer's outcome as the load studies count it: ok with what it read when <see cref="CheckAsync"/> passes, else its failure.</summary>
    public static async Task<(Outcome Outcome, object? Read)> JudgeAsync(Scenario scenario, Protocol protocol, string marker, byte[] answer)
    {
        try
        {
            return (Outcome.Ok, await CheckAsync(scenario, protocol, marker, answer));
        }
        catch (Exception e)
        {
            return (Outcome.Classify(e, CancellationToken.None, CancellationToken.None), null);
        }
    }

    /// <summary>
    /// The scenario's caller without a connection: records the call the scenario sends (and stops it there), or answers
    /// it with the other stack's answer.
    /// </summary>
    private sealed class Replay(Protocol protocol, byte[]? answer) : ILibraryOperations
    {
        public PortableCall? Recorded { get; private set; }

        public bool Offers(Operation operation) => PortableCall.Offers(protocol, operation);

        public Task<TResult> CallAsync<TResult>(OperationCall<TResult> call, CancellationToken cancellationToken = default)
        {
            if (answer is null)
            {
                Recorded = PortableCall.Of(protocol, call);
                throw new RecordedException();
            }

            return Task.FromResult(PortableCall.Read(protocol, call, answer));
        }

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;

        public sealed class RecordedException : Exception;
    }
}
