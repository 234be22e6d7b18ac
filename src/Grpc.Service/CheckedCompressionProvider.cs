using Grpc.Net.Compression;

namespace ProtocolBench.Grpc.Service;

/// <summary>grpc-dotnet's gzip or deflate, with corrupt data reported as INVALID_ARGUMENT (see <see cref="CheckedRequests"/>).</summary>
internal sealed class CheckedCompressionProvider(ICompressionProvider inner) : ICompressionProvider
{
    public string EncodingName => inner.EncodingName;

    public Stream CreateCompressionStream(Stream stream, System.IO.Compression.CompressionLevel? compressionLevel) =>
        inner.CreateCompressionStream(stream, compressionLevel);

    public Stream CreateDecompressionStream(Stream stream) => new CheckedStream(inner.CreateDecompressionStream(stream));

    private sealed class CheckedStream(Stream inner) : Stream
    {
        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            try
            {
                return inner.Read(buffer);
            }
            catch (InvalidDataException)
            {
                throw new RpcException(CheckedRequests.CorruptCompressedData);
            }
        }

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                inner.Dispose();
            }

            base.Dispose(disposing);
        }
    }
}
