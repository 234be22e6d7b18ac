using Grpc.Core.Interceptors;
using ProtocolBench.Shared.Domain.Payloads;
using ProtocolBench.Shared.Hosting.Answers;

namespace ProtocolBench.Grpc.Service.Budget;

/// <summary>
/// Reserves the largest possible answer of each unary call's <see cref="Operation"/> from the <see cref="ResponseBudget"/>
/// before it runs, and charges a list of authors its real size before it is written. A file reserves nothing unless its reply
/// is compressed: it is written from the copy every caller shares (<see cref="SplicedReplies"/>). StreamPdf needs none: it writes
/// 64 KiB chunks and waits for each, so a reader that stops holds one chunk.
/// </summary>
public sealed class ResponseBudgetInterceptor(ResponseBudget budget, PayloadFiles files, SharedAnswers answers, IConfiguration configuration) : Interceptor
{
    private readonly bool _compressed = CompressionOptions.IsEnabled(configuration);

    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(
        TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        var http = context.GetHttpContext();
        var operation = http.GetEndpoint()?.Metadata.GetMetadata<OperationAttribute>()?.Operation;
        if (operation is { IsShared: true } && !_compressed)
        {
            // A file's reply holds the file by reference (SplicedReplies); a compressed one is a copy, and reserves.
            SplicingResponseBody.Install(http, answers);
            operation = null;
        }

        await budget.ReserveForAsync(http, operation?.MostAnswered(new OperationArguments(request, ReadField), files) ?? 0, context.CancellationToken);
        var response = await continuation(request, context);
        if (response is AuthorList authors)
        {
            // A list of authors is charged what it takes on the wire once it is built (their names' lengths are known only now).
            budget.Charge(http, authors.CalculateSize());
        }

        return response;
    }

    /// <summary>A request message's field by its name in the .proto; an unset optional field reads null.</summary>
    private static object? ReadField(object? request, string name) =>
        request is IMessage message && message.Descriptor.FindFieldByName(name) is { } field
        && (!field.HasPresence || field.Accessor.HasValue(message))
            ? field.Accessor.GetValue(message)
            : null;
}
