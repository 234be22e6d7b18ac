using ProtocolBench.Shared.Domain;

namespace ProtocolBench.Shared.Clients;

/// <summary>A connection's stream that counts the bytes read from it and written to it (<see cref="WireCounter"/>).</summary>
internal sealed class CountingStream(Stream inner, WireCounter counter) : PassThroughStream(inner)
{
    public override int Read(byte[] buffer, int offset, int count) => Counted(Inner.Read(buffer, offset, count));

    public override int Read(Span<byte> buffer) => Counted(Inner.Read(buffer));

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        Counted(await Inner.ReadAsync(buffer, cancellationToken));

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Write(byte[] buffer, int offset, int count)
    {
        Inner.Write(buffer, offset, count);
        counter.AddSent(count);
    }

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        Inner.Write(buffer);
        counter.AddSent(buffer.Length);
    }

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        await Inner.WriteAsync(buffer, cancellationToken);
        counter.AddSent(buffer.Length);
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    private int Counted(int read)
    {
        counter.AddReceived(read);
        return read;
    }
}
