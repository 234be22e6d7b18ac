using System.Buffers.Binary;
using Google.Protobuf;

namespace ProtocolBench.Shared.Clients;

/// <summary>
/// gRPC's length-prefixed message, for the callers that write a call's body themselves (h2load's body file, the tests'
/// hand-made calls): the compressed flag, the length big-endian, the message.
/// </summary>
public static class GrpcFrame
{
    public static byte[] Of(IMessage message) => Of(message.ToByteArray());

    public static byte[] Of(byte[] message, bool compressed = false)
    {
        var frame = new byte[5 + message.Length];
        frame[0] = compressed ? (byte)1 : (byte)0;
        BinaryPrimitives.WriteUInt32BigEndian(frame.AsSpan(1), (uint)message.Length);
        message.CopyTo(frame, 5);
        return frame;
    }
}
