using System.Diagnostics.CodeAnalysis;
using System.Runtime.ExceptionServices;
using Microsoft.AspNetCore.Connections;
using ProtocolBench.SignalR.Api.Budget;

namespace ProtocolBench.SignalR.Api;

/// <summary>
/// SignalR's JSON or MessagePack protocol, unchanged, that tells a connection's ledger (<see cref="AnswerLedger"/>) what it
/// has written: the only place that sees an answer written, after its hub method has returned; and the only place that sees
/// whether an invocation asked for an answer at all, and why one could not be bound to its method. It also keeps two rules
/// of the hub protocol that SignalR does not: nothing a client sends after its close message runs, and a hub error reaches
/// the client led by its code (<see cref="HubErrors"/>), without SignalR's sentence before it.
/// </summary>
internal sealed class CountedHubProtocol(IHubProtocol inner) : IHubProtocol
{
    // SignalR dispatches each message in the flow that parsed it (its receive loop awaits the dispatch, which starts the
    // hub method under the connection's invocation limit), so a value set here reaches that message's hub filters.
    private static readonly AsyncLocal<bool> Unanswered = new();

    // Set in the flow of a connection's receive loop once it has parsed the client's close message.
    private static readonly AsyncLocal<bool> Closed = new();

    public string Name => inner.Name;

    public int Version => inner.Version;

    public TransferFormat TransferFormat => inner.TransferFormat;

    /// <summary>
    /// True in the hub filters of an invocation sent without an invocation id (fire-and-forget, as a client's
    /// <c>SendAsync</c> sends one) or with an empty one: SignalR runs its method and writes no answer for either.
    /// </summary>
    public static bool IsUnanswered => Unanswered.Value;

    public bool IsVersionSupported(int version) => inner.IsVersionSupported(version);

    public bool TryParseMessage(ref ReadOnlySequence<byte> input, IInvocationBinder binder, [NotNullWhen(true)] out HubMessage? message)
    {
        if (Closed.Value)
        {
            // The client said it was done: what follows its close message, in the same frame or later, is dropped unread.
            // SignalR went on dispatching it while the connection closed, and stored an author it never answered for.
            input = input.Slice(input.End);
            message = null;
            return false;
        }

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

        Unanswered.Value = message is InvocationMessage { InvocationId: null or "" };
        Closed.Value = message is CloseMessage;
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

    public ReadOnlyMemory<byte> GetMessageBytes(HubMessage message) => inner.GetMessageBytes(OwnError(message));

    public void WriteMessage(HubMessage message, IBufferWriter<byte> output)
    {
        if (!SplicedCompletions.TryWrite(inner, message, output))
        {
            inner.WriteMessage(OwnError(message), output);
        }

        if (output is AnswerWriter writer)
        {
            writer.Ledger.Wrote(message, writer.Written);
        }
    }

    /// <summary>
    /// A completion's error as the hub wrote it: SignalR puts its own sentence and the exception's type before a
    /// <see cref="HubException"/>'s text ("An unexpected error occurred invoking 'GetInts' on the server. HubException:
    /// INVALID_ARGUMENT count: …"); the client reads "INVALID_ARGUMENT count: …", as the error table says. The last marker
    /// is the hub's own: what comes before it may hold a method name the client sent, and the hub's texts never hold one.
    /// </summary>
    private static HubMessage OwnError(HubMessage message)
    {
        const string Marker = "HubException: ";
        if (message is not CompletionMessage { Error: { } error } completion)
        {
            return message;
        }

        var at = error.LastIndexOf(Marker, StringComparison.Ordinal);
        return at < 0 ? message : new CompletionMessage(completion.InvocationId!, error[(at + Marker.Length)..], result: null, hasResult: false) { Headers = completion.Headers };
    }
}
