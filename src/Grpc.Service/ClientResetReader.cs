using System.IO.Pipelines;
using Microsoft.AspNetCore.Http.Features;

namespace ProtocolBench.Grpc.Service;

/// <summary>
/// A request's reader whose failure is the client's: a stream the client reset while its request was read ("The client reset
/// the request stream.") fails the call with CANCELLED, which grpc-dotnet logs at Information. It logged the IOException
/// itself at Error, because Kestrel cancels the call's token on the thread pool, after the reader has already failed. The reset
/// comes out of a read or out of the giving back of one (<see cref="AdvanceTo(SequencePosition, SequencePosition)"/>).
/// </summary>
internal sealed class ClientResetReader(PipeReader inner) : PipeReader, IRequestBodyPipeFeature
{
    PipeReader IRequestBodyPipeFeature.Reader => this;

    /// <summary>Puts the reader between grpc-dotnet and the request's body.</summary>
    public static Task Install(HttpContext context, RequestDelegate next)
    {
        context.Features.Set<IRequestBodyPipeFeature>(new ClientResetReader(context.Request.BodyReader));
        return next(context);
    }

    public override ValueTask<ReadResult> ReadAsync(CancellationToken cancellationToken = default)
    {
        try
        {
            var read = inner.ReadAsync(cancellationToken);
            return read.IsCompletedSuccessfully ? read : Awaited(read);
        }
        catch (IOException e)
        {
            throw ClientStopped(e);
        }
    }

    public override bool TryRead(out ReadResult result)
    {
        try
        {
            return inner.TryRead(out result);
        }
        catch (IOException e)
        {
            throw ClientStopped(e);
        }
    }

    public override void AdvanceTo(SequencePosition consumed) => AdvanceTo(consumed, consumed);

    /// <summary>Kestrel's reader also throws the reset from here, when grpc-dotnet gives back a read the client has since reset.</summary>
    public override void AdvanceTo(SequencePosition consumed, SequencePosition examined)
    {
        try
        {
            inner.AdvanceTo(consumed, examined);
        }
        catch (IOException e)
        {
            throw ClientStopped(e);
        }
    }

    public override void CancelPendingRead() => inner.CancelPendingRead();

    public override void Complete(Exception? exception = null) => inner.Complete(exception);

    public override ValueTask CompleteAsync(Exception? exception = null) => inner.CompleteAsync(exception);

    private static async ValueTask<ReadResult> Awaited(ValueTask<ReadResult> read)
    {
        try
        {
            return await read;
        }
        catch (IOException e)
        {
            throw ClientStopped(e);
        }
    }

    private static RpcException ClientStopped(IOException e) => new(new Status(StatusCode.Cancelled, "The client stopped sending its request.", e));
}
