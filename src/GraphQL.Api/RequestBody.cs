using System.Buffers;
using System.IO.Pipelines;

namespace ProtocolBench.GraphQL.Api;

/// <summary>A look at a request body before it is read as JSON: whether it is a batch (refused).</summary>
internal static class RequestBody
{
    /// <summary>Looks at the first non-whitespace byte of the body without consuming it.</summary>
    public static async Task<bool> StartsWithArrayAsync(PipeReader body, CancellationToken cancellationToken)
    {
        while (true)
        {
            var read = await body.ReadAsync(cancellationToken);
            var buffer = read.Buffer;
            var first = FirstNonWhitespace(buffer);
            if (first is not null || read.IsCompleted)
            {
                body.AdvanceTo(buffer.Start);
                return first == (byte)'[';
            }

            body.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    private static byte? FirstNonWhitespace(ReadOnlySequence<byte> buffer)
    {
        foreach (var segment in buffer)
        {
            foreach (var b in segment.Span)
            {
                if (b is not ((byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n'))
                {
                    return b;
                }
            }
        }

        return null;
    }
}
