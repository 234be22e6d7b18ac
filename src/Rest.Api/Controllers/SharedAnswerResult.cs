using ProtocolBench.Shared.Hosting.Answers;

namespace ProtocolBench.Rest.Api.Controllers;

/// <summary>
/// A file's answer written from the copy every caller shares (<see cref="SharedAnswers"/>), a piece at a time as the
/// reader takes it, with its length: MVC's JSON and file results copy the whole answer into each reader's buffers.
/// </summary>
internal sealed class SharedAnswerResult(SharedAnswers answers, ReadOnlyMemory<byte> bytes, string contentType) : IActionResult
{
    public const string Json = "application/json; charset=utf-8";

    public async Task ExecuteResultAsync(ActionContext context)
    {
        var http = context.HttpContext;
        http.Response.ContentType = contentType;
        http.Response.ContentLength = bytes.Length;
        SharedAnswers.StopRequestTimeout(http);
        await answers.WriteAsync(http.Response.BodyWriter, bytes, http.RequestAborted);
    }
}
