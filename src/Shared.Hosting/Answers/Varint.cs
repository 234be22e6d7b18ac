using System.Buffers;

namespace ProtocolBench.Shared.Hosting.Answers;

/// <summary>
/// A base-128 varint (7 bits a byte, least significant first, the high bit set on all but the last): protobuf's lengths
/// and SignalR's binary length prefix, for the answers written around a splice. By hand: neither library exposes its writer.
/// </summary>
public static class Varint
{
    public const int MaxBytes = 5;

    public static void Write(IBufferWriter<byte> output, uint value)
    {
        var span = output.GetSpan(MaxBytes);
        var written = 0;
        while (value >= 0x80)
        {
            span[written++] = (byte)(value | 0x80);
            value >>= 7;
        }

        span[written++] = (byte)value;
        output.Advance(written);
    }

    /// <summary>How many bytes the varint at the start of <paramref name="bytes"/> takes.</summary>
    public static int Length(ReadOnlySpan<byte> bytes)
    {
        var length = 0;
        while (bytes[length] >= 0x80)
        {
            length++;
        }

        return length + 1;
    }
}
