using Grpc.Core;
using Grpc.Core.Interceptors;
using ProtocolBench.Shared.Domain;
using ProtocolBench.Shared.Domain.Payloads;
using ProtocolBench.Shared.Hosting;
using ProtocolBench.V1;

namespace ProtocolBench.Grpc.Service;

/// <summary>
/// Reserves each unary call's largest possible answer from the <see cref="ResponseBudget"/> before it runs, and charges a
/// list of authors its real size before it is written. StreamPdf
/// needs none: it writes 64 KiB chunks and waits for each, so a reader that stops holds one chunk.
/// </summary>
public sealed class ResponseBudgetInterceptor(ResponseBudget budget, PayloadFiles files) : Interceptor
{
    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        await budget.ReserveForAsync(context.GetHttpContext(), SizeOf(request, context.Method), context.CancellationToken);
        var response = await continuation(request, context);
        if (response is AuthorList authors)
        {
            // A list of authors is charged what it takes on the wire once it is built (their names' lengths are known only now).
            budget.Charge(context.GetHttpContext(), authors.CalculateSize());
        }

        return response;
    }

    private long SizeOf(object request, string method) => request switch
    {
        CloneRequest clone => ResponseSize.CloneHeld(clone.Text, clone.HasCount ? clone.Count : null),
        GetIntsRequest ints => ResponseSize.Ints(ints.HasCount ? ints.Count : null),
        GetFileRequest when !files.IsAvailable => 0,
        GetFileRequest when method.EndsWith("/GetTextFile", StringComparison.Ordinal) => ResponseSize.File(files.Text.Length),
        GetFileRequest when method.EndsWith("/GetPdf", StringComparison.Ordinal) => ResponseSize.File(files.Pdf.Length),
        SearchAuthorsRequest search => ResponseSize.Search(search.HasLimit ? search.Limit : null),
        ListAuthorsRequest list => ResponseSize.List(list.HasTake ? list.Take : null),
        GetShapeRequest shape => ResponseSize.Shapes(shape.Kind, 1),
        ListShapesRequest shapes => ResponseSize.Shapes(shapes.Kind, shapes.HasCount ? shapes.Count : null),
        _ => 0,
    };
}
