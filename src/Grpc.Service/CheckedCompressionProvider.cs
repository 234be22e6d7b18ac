using Grpc.Net.Compression;

namespace ProtocolBench.Grpc.Service;

/// <summary>grpc-dotnet's gzip or deflate, with corrupt data reported as INVALID_ARGUMENT (see <see cref="CheckedRequests"/>).</summary>
internal sealed class CheckedCompressionProvider(ICompressionProvider inner) : ICompressionProvider
{
    public string EncodingName => inner.EncodingName;

    public Stream CreateCompressionStream(Stream stream, System.IO.Compression.CompressionLevel? compressionLevel) =>
        inner.CreateCompressionStream(stream, compressionLevel);

    public Stream CreateDecompressionStream(Stream stream) => new CheckedStream(inner.CreateDecompressionStream(stream));

    private sealed class CheckedStream(Stream inner) : PassThroughStream(inner)
    {
        public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

        public override int Read(Span<byte> buffer)
        {
            try
            {
                return Inner.Read(buffer);
            }
            catch (InvalidDataException)
            {
                throw new RpcException(CheckedRequests.CorruptCompressedData);
            }
        }

        public override bool CanWrite => false;

        public override void Flush()
        {
        }

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
