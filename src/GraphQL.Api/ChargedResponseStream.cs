using ProtocolBench.Shared.Hosting;

namespace ProtocolBench.GraphQL.Api;

/// <summary>
/// The response body as GraphQL writes it, charging the <see cref="ResponseBudget"/> for every byte beyond what the request
/// reserved before it executed. A GraphQL answer's size is known only as it is written: aliases repeat a field, and a
/// list's names may be long. By hand because the framework has no counting stream; a write that stays within the
/// reservation costs one comparison.
/// </summary>
internal sealed class ChargedResponseStream(HttpContext http, ResponseBudget budget) : Stream
{
    private readonly Stream _body = http.Response.Body;
    private long _written;
    private long _covered = -1;

    public override bool CanRead => false;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => throw new NotSupportedException();

    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        Count(buffer.Length);
        _body.Write(buffer);
    }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        Count(buffer.Length);
        return _body.WriteAsync(buffer, cancellationToken);
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Flush() => _body.Flush();

    public override Task FlushAsync(CancellationToken cancellationToken) => _body.FlushAsync(cancellationToken);

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    private void Count(int bytes)
    {
        _written += bytes;
        if (_written > _covered)
        {
            _covered = budget.Charge(http, _written);
        }
    }
}
