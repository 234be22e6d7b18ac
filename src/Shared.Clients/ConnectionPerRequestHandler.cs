namespace ProtocolBench.Shared.Clients;

/// <summary>
/// --connections new: every request gets a handler of its own, so a TCP connection of its own (with its TLS handshake and
/// HTTP/2 preface), closed when the response is disposed. HTTP/1.1 requests also say "Connection: close", as JMeter does
/// without keep-alive. Written by hand because SocketsHttpHandler has no such mode: PooledConnectionLifetime = 0 closes
/// HTTP/1.1 connections but still lets requests that start in the same millisecond share an HTTP/2 connection.
/// </summary>
internal sealed class ConnectionPerRequestHandler(Func<HttpMessageHandler> newHandler) : HttpMessageHandler
{
    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        if (request.Version == HttpVersion.Version11)
        {
            request.Headers.ConnectionClose = true;
        }

        var handler = newHandler();
        try
        {
            var response = await new HttpMessageInvoker(handler, disposeHandler: false).SendAsync(request, cancellationToken);
            response.Content = new ClosingContent(response.Content, handler);
            return response;
        }
        catch
        {
            handler.Dispose();
            throw;
        }
    }

    /// <summary>The response's content, unchanged, that closes the request's connection when it is disposed.</summary>
    private sealed class ClosingContent : HttpContent
    {
        private readonly HttpContent _inner;
        private readonly HttpMessageHandler _handler;

        public ClosingContent(HttpContent inner, HttpMessageHandler handler)
        {
            _inner = inner;
            _handler = handler;
            foreach (var header in inner.Headers)
            {
                Headers.TryAddWithoutValidation(header.Key, header.Value);
            }
        }

        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => _inner.CopyToAsync(stream, context);

        protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken) =>
            _inner.CopyToAsync(stream, context, cancellationToken);

        protected override Task<Stream> CreateContentReadStreamAsync() => _inner.ReadAsStreamAsync();

        protected override Task<Stream> CreateContentReadStreamAsync(CancellationToken cancellationToken) => _inner.ReadAsStreamAsync(cancellationToken);

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                _inner.Dispose();
                _handler.Dispose();
            }

            base.Dispose(disposing);
        }
    }
}
