using System.Buffers;
using ProtocolBench.Shared.Hosting.Answers;

namespace ProtocolBench.Grpc.Service;

/// <summary>
/// A file's reply with its bytes by reference: protobuf writes a bytes field into the response's buffers in one go, a copy
/// of the file for each reader until the reader has taken it. When the reply is written straight into a
/// <see cref="SplicingWriter"/> (no compression) and its data is a shared file, the marshaller writes the fields before
/// the data as protobuf does (name, content type, the data's tag and length: field order), and splices the file itself.
/// </summary>
internal static class SplicedReplies
{
    /// <summary>The data field's tag: field 3, length-delimited.</summary>
    private const byte DataTag = (3 << 3) | 2;

    private const int MaxVarintBytes = 5;

    public static Marshaller<T> For<T>(Marshaller<T> marshaller) =>
        marshaller is Marshaller<FileReply> replies ? (Marshaller<T>)(object)Spliced(replies) : marshaller;

    private static Marshaller<FileReply> Spliced(Marshaller<FileReply> marshaller) => new(
        (reply, context) =>
        {
            context.SetPayloadLength(reply.CalculateSize());
            var writer = context.GetBufferWriter();
            if (writer is SplicingWriter splicing && !reply.Data.IsEmpty)
            {
                new FileReply { Name = reply.Name, ContentType = reply.ContentType }.WriteTo(writer);
                var head = writer.GetSpan(1 + MaxVarintBytes);
                head[0] = DataTag;
                writer.Advance(1 + WriteVarint(head[1..], (uint)reply.Data.Length));
                if (!splicing.TrySplice(reply.Data.Memory))
                {
                    writer.Write(reply.Data.Span);
                }
            }
            else
            {
                reply.WriteTo(writer);
            }

            context.Complete();
        },
        marshaller.ContextualDeserializer);

    /// <summary>A base-128 varint, as protobuf writes a length; by hand: Google.Protobuf's writer does not take a span.</summary>
    private static int WriteVarint(Span<byte> span, uint value)
    {
        var length = 0;
        while (value >= 0x80)
        {
            span[length++] = (byte)(value | 0x80);
            value >>= 7;
        }

        span[length++] = (byte)value;
        return length;
    }
}
