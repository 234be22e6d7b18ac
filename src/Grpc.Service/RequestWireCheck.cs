using System.Buffers;
using Google.Protobuf.Reflection;

namespace ProtocolBench.Grpc.Service;

/// <summary>
/// Reads a request's fields as they were sent, before protobuf does, and refuses the two values protobuf would take silently:
/// a varint past Int32 in an <c>int32</c> field, of which protobuf keeps the low 32 bits (an update of author 2³²+5 rewrote
/// author 5), and a known field sent with another wire type, which protobuf files among the unknown fields (a count sent as
/// text served the default 100). Both are INVALID_ARGUMENT in the words of the other protocols. Written by hand: protobuf's
/// readers report neither, and none reads a <see cref="ReadOnlySequence{T}"/> tag by tag in public.
/// </summary>
internal sealed class RequestWireCheck
{
    private readonly Dictionary<int, FieldDescriptor> _fields;

    private RequestWireCheck(MessageDescriptor descriptor) => _fields = descriptor.Fields.InFieldNumberOrder().ToDictionary(f => f.FieldNumber);

    /// <summary>The check of <typeparamref name="T"/>'s fields; null for a type that is not a protobuf message.</summary>
    public static RequestWireCheck? For<T>() =>
        typeof(T).GetProperty("Descriptor", typeof(MessageDescriptor))?.GetValue(null) is MessageDescriptor descriptor ? new RequestWireCheck(descriptor) : null;

    /// <summary>The first field sent wrongly, as the domain's error; null when every known field reads as declared, or when the bytes do not parse at all (protobuf then says so).</summary>
    public DomainException? FirstError(ReadOnlySequence<byte> payload)
    {
        var reader = new SequenceReader<byte>(payload);
        while (!reader.End)
        {
            if (!TryReadVarint(ref reader, out var tag))
            {
                return null;
            }

            var wireType = (WireFormat.WireType)(tag & 7);
            _fields.TryGetValue((int)(tag >> 3), out var field);
            if (field is not null && wireType != WireTypeOf(field))
            {
                return Refusal(field);
            }

            switch (wireType)
            {
                case WireFormat.WireType.Varint:
                    if (!TryReadVarint(ref reader, out var value))
                    {
                        return null;
                    }

                    if (field?.FieldType == FieldType.Int32 && (long)value is < int.MinValue or > int.MaxValue)
                    {
                        return Refusal(field);
                    }

                    break;
                case WireFormat.WireType.Fixed64 when reader.Remaining >= 8:
                    reader.Advance(8);
                    break;
                case WireFormat.WireType.Fixed32 when reader.Remaining >= 4:
                    reader.Advance(4);
                    break;
                case WireFormat.WireType.LengthDelimited when TryReadVarint(ref reader, out var length) && length <= (ulong)reader.Remaining:
                    reader.Advance((long)length);
                    break;
                default:
                    return null;
            }
        }

        return null;
    }

    private static DomainException Refusal(FieldDescriptor field) =>
        field.FieldType == FieldType.Int32 ? Validate.NotAnInt32(field.Name) : Validate.NotText(field.Name);

    // The request messages hold strings and int32s, none repeated; a packed repeated field would also be length-delimited.
    private static WireFormat.WireType WireTypeOf(FieldDescriptor field) => field.FieldType switch
    {
        _ when field.IsRepeated && field.IsPacked => WireFormat.WireType.LengthDelimited,
        FieldType.String or FieldType.Bytes or FieldType.Message => WireFormat.WireType.LengthDelimited,
        FieldType.Double or FieldType.Fixed64 or FieldType.SFixed64 => WireFormat.WireType.Fixed64,
        FieldType.Float or FieldType.Fixed32 or FieldType.SFixed32 => WireFormat.WireType.Fixed32,
        _ => WireFormat.WireType.Varint,
    };

    private static bool TryReadVarint(ref SequenceReader<byte> reader, out ulong value)
    {
        value = 0;
        for (var shift = 0; shift < 70; shift += 7)
        {
            if (!reader.TryRead(out var b))
            {
                return false;
            }

            value |= (ulong)(b & 0x7F) << shift;
            if (b < 0x80)
            {
                return true;
            }
        }

        return false;
    }
}
