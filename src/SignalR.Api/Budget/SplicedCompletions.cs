using System.Buffers.Binary;
using Microsoft.AspNetCore.Connections;

namespace ProtocolBench.SignalR.Api.Budget;

/// <summary>
/// A completion whose result is a shared file, written with the file by reference (<see cref="SplicingWriter"/>) rather
/// than copied into the connection's pipe whole, a copy for each reader until it has been sent. JSON: SignalR's own
/// writer, the file's base64 spliced by <see cref="SharedBase64Converter"/>. MessagePack: SignalR's writer builds the whole
/// message in a buffer of its own to learn its length, so it writes the message with the file's data empty here; that
/// message's last bytes are the empty bin (0xc4 0x00), replaced by the file's bin header, its length prefix by the whole
/// message's, and the file's bytes spliced after them. A message that does not end so is written whole, as before.
/// </summary>
internal static class SplicedCompletions
{
    private static readonly byte[] EmptyBin = [0xc4, 0x00];

    public static bool TryWrite(IHubProtocol protocol, HubMessage message, IBufferWriter<byte> output)
    {
        if (message is not CompletionMessage { Result: FilePayload file } completion || output is not AnswerWriter { Splicing: var splicing }
            || !splicing.Shares(file.Data))
        {
            return false;
        }

        if (protocol.TransferFormat == TransferFormat.Text)
        {
            var previous = SplicingWriter.Current;
            SplicingWriter.Current = splicing;
            try
            {
                protocol.WriteMessage(message, output);
            }
            finally
            {
                SplicingWriter.Current = previous;
            }

            return true;
        }

        var empty = new ArrayBufferWriter<byte>(256);
        protocol.WriteMessage(new CompletionMessage(completion.InvocationId!, null, file with { Data = [] }, hasResult: true) { Headers = completion.Headers }, empty);
        var prefix = Varint.Length(empty.WrittenSpan);
        var head = empty.WrittenSpan[prefix..];
        if (!head.EndsWith(EmptyBin))
        {
            return false;
        }

        head = head[..^EmptyBin.Length];
        Span<byte> bin = stackalloc byte[5];
        bin[0] = 0xc6;
        BinaryPrimitives.WriteUInt32BigEndian(bin[1..], (uint)file.Data.Length);
        Varint.Write(output, (uint)(head.Length + bin.Length + file.Data.Length));
        output.Write(head);
        output.Write(bin);
        splicing.Splice(file.Data);
        return true;
    }
}
