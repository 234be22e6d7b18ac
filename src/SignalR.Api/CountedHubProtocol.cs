using System.Buffers;
using System.Diagnostics.CodeAnalysis;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Protocol;

namespace ProtocolBench.SignalR.Api;

/// <summary>
/// SignalR's JSON or MessagePack protocol, unchanged, that tells a connection's ledger (<see cref="AnswerLedger"/>) what it
/// has written: the only place that sees an answer written, after its hub method has returned.
/// </summary>
internal sealed class CountedHubProtocol(IHubProtocol inner) : IHubProtocol
{
    public string Name => inner.Name;

    public int Version => inner.Version;

    public TransferFormat TransferFormat => inner.TransferFormat;

    public bool IsVersionSupported(int version) => inner.IsVersionSupported(version);

    public bool TryParseMessage(ref ReadOnlySequence<byte> input, IInvocationBinder binder, [NotNullWhen(true)] out HubMessage? message) =>
        inner.TryParseMessage(ref input, binder, out message);

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
