using System.Net.Sockets;
using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Lab.Scenarios;

/// <summary>
/// The binary files from the REST service's loopback sender (<c>LoopbackSender</c> in Shared.Hosting): the same bytes over the
/// same link, between the same cores, without any protocol, the limit the binary files' cells are held against. One
/// warm connection; a call sends one byte and reads exactly the file's length into an array of that size, as the REST
/// client reads /raw. Only the raw files exist here: every other operation throws <see cref="NotSupportedException"/>.
/// </summary>
/// <param name="files">The files the sender serves, for their lengths; by default the catalogue's.</param>
public sealed class LoopbackTransferClient(string host, int port, TimeSpan timeout, PayloadFiles? files = null) : ILibraryOperations
{
    private static readonly byte[] TextRequest = [Floors.SendTextFile];
    private static readonly byte[] PdfRequest = [Floors.SendPdf];
    private readonly SemaphoreSlim _oneAtATime = new(1);
    private NetworkStream? _connection;

    private PayloadFiles Files => files ?? Catalogue.Files;

    public bool Offers(Operation operation) => operation == Operation.GetTextFileRaw || operation == Operation.GetPdfRaw;

    public Task<TResult> CallAsync<TResult>(OperationCall<TResult> call, CancellationToken cancellationToken = default) =>
        (Task<TResult>)(object)((Operation)call.Operation == Operation.GetTextFileRaw ? TransferAsync(TextRequest, Files.Text.Length, cancellationToken)
            : (Operation)call.Operation == Operation.GetPdfRaw ? TransferAsync(PdfRequest, Files.Pdf.Length, cancellationToken)
            : throw new NotSupportedException("The loopback sender moves the binary files' bytes only: it has no protocol for anything else."));

    public ValueTask DisposeAsync()
    {
        _connection?.Dispose();
        _connection = null;
        return ValueTask.CompletedTask;
    }

    private async Task<byte[]> TransferAsync(byte[] request, int length, CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        await _oneAtATime.WaitAsync(deadline.Token);
        try
        {
            if (_connection is not null)
            {
                try
                {
                    return await ExchangeAsync(_connection, request, length, deadline.Token);
                }
                catch (IOException) when (!deadline.IsCancellationRequested)
                {
                    // The warm connection was closed while it waited (the sender's keep-alive, or its place taken by a
                    // connection that asked when all were held): asked again once, on a new one, as HTTP clients retry
                    // an idempotent request on a pooled connection that turns out closed.
                    await DisposeAsync();
                }
            }

            _connection = await ConnectAsync(deadline.Token);
            return await ExchangeAsync(_connection, request, length, deadline.Token);
        }
        catch (Exception e)
        {
            // A connection left mid-file is not reused: the next call opens a new one.
            await DisposeAsync();
            if (e is EndOfStreamException)
            {
                throw new IOException($"The loopback sender on {host}:{port} closed the connection before the {length:N0} bytes of the file.", e);
            }

            throw;
        }
        finally
        {
            _oneAtATime.Release();
        }
    }

    private static async Task<byte[]> ExchangeAsync(NetworkStream connection, byte[] request, int length, CancellationToken cancellationToken)
    {
        await connection.WriteAsync(request, cancellationToken);
        var bytes = GC.AllocateUninitializedArray<byte>(length);
        await connection.ReadExactlyAsync(bytes, cancellationToken);
        return bytes;
    }

    private async Task<NetworkStream> ConnectAsync(CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(host, port, cancellationToken);
            return new NetworkStream(socket, ownsSocket: true);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
