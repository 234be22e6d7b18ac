using System.Diagnostics.CodeAnalysis;
using System.Runtime.ExceptionServices;
using Microsoft.AspNetCore.Connections;
using ProtocolBench.SignalR.Api.Budget;

namespace ProtocolBench.SignalR.Api;

/// <summary>
/// SignalR's JSON or MessagePack protocol, unchanged, that tells a connection's ledger (<see cref="AnswerLedger"/>) what it
/// has written: the only place that sees an answer written, after its hub method has returned; and the only place that sees
/// whether an invocation asked for an answer at all, and why one could not be bound to its method.
/// </summary>
internal sealed class CountedHubProtocol(IHubProtocol inner) : IHubProtocol
{
    // SignalR dispatches each message in the flow that parsed it (its receive loop awaits the dispatch, which starts the
    // hub method under the connection's invocation limit), so a value set here reaches that message's hub filters.
    private static readonly AsyncLocal<bool> Unanswered = new();

    public string Name => inner.Name;

    public int Version => inner.Version;

    public TransferFormat TransferFormat => inner.TransferFormat;

    /// <summary>
    /// True in the hub filters of an invocation sent without an invocation id (fire-and-forget, as a client's
    /// <c>SendAsync</c> sends one): SignalR runs its method and writes no answer for it.
    /// </summary>
    public static bool IsUnanswered => Unanswered.Value;

    public bool IsVersionSupported(int version) => inner.IsVersionSupported(version);

    public bool TryParseMessage(ref ReadOnlySequence<byte> input, IInvocationBinder binder, [NotNullWhen(true)] out HubMessage? message)
    {
        var length = input.Length;
        if (!inner.TryParseMessage(ref input, binder, out message))
        {
            if (input.Length == length)
            {
                return false;
            }

            // A whole message of a type this version does not know, which the protocol skips (the spec's "ignore it"). Said
            // false, it wedged its connection: SignalR's receive loop, with a message size limit set, then waits for more
            // bytes without moving past it, and the next invocation was never answered. A ping does nothing.
            message = PingMessage.Instance;
        }

        Unanswered.Value = message is InvocationMessage { InvocationId: null };
        if (message is InvocationBindingFailureMessage failure)
        {
            message = new InvocationBindingFailureMessage(failure.InvocationId, failure.Target, ClientError(failure.BindingFailure));
        }

        return true;
    }

    /// <summary>
    /// A message that could not be bound to a hub method, as the client's mistake that it is, led by its code like any hub
    /// error (<see cref="HubErrors"/>). SignalR answers it with the text of a <see cref="HubException"/> and nothing of any
    /// other exception, so the parser's own message (its exception type, the offending text) never reaches the client.
    /// </summary>
    private static ExceptionDispatchInfo ClientError(ExceptionDispatchInfo failure) => ExceptionDispatchInfo.Capture(new HubException(
        failure.SourceException is HubException
            // The binder's one refusal of its own: no method of that name.
            ? HubErrors.Message(HubErrors.Unimplemented, "method", "The hub has no method of this name.")
            : HubErrors.Message(HubErrors.InvalidArgument, "arguments", "They do not bind to the method's parameters: their number, a value's type or range, or text that is not UTF-8.")));

    public ReadOnlyMemory<byte> GetMessageBytes(HubMessage message) => inner.GetMessageBytes(message);

    public void WriteMessage(HubMessage message, IBufferWriter<byte> output)
    {
        inner.WriteMessage(message, output);
        if (output is AnswerWriter writer)
        {
            writer.Ledger.Wrote(message, writer.Written);
        }
    }
}
