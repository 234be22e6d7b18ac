using Microsoft.AspNetCore.Mvc.Formatters;
using Microsoft.Extensions.Options;
using ProtocolBench.Shared.Domain.Payloads;
using ProtocolBench.Shared.Hosting.Answers;

namespace ProtocolBench.Rest.Api.Controllers;

[ApiController]
[Route("api/payloads")]
public sealed class PayloadsController(PayloadFiles files, SharedAnswers answers, IOptions<MvcOptions> mvc) : ControllerBase
{
    [HttpGet("clone")]
    [Operation(nameof(Operation.Clone))]
    public CloneResult Clone(string? text, int? count) => new(PayloadOperations.Clone(text, count));

    [HttpGet("int-max")]
    [Operation(nameof(Operation.GetIntMax))]
    public IntMaxResult IntMax() => new(PayloadOperations.IntMax);

    [HttpGet("ints")]
    [Operation(nameof(Operation.GetInts))]
    public IntsResult Ints(int? count) => new(PayloadOperations.Ints(count));

    [HttpGet("sample")]
    [Operation(nameof(Operation.GetSample))]
    public AuthorDto Sample() => PayloadOperations.Sample;

    // The paper's Web API returned files inside JSON, base64-encoded; /raw sends the bytes as they are. Both are written
    // from one copy every caller shares (SharedAnswers): the JSON is what MVC would write, serialized once.
    [HttpGet("text-file")]
    [Operation(nameof(Operation.GetTextFile))]
    [ProducesResponseType<FilePayload>(StatusCodes.Status200OK, SharedAnswerResult.Json)]
    public IActionResult TextFile() => new SharedAnswerResult(answers, answers.Json(files.TextFile, Json), SharedAnswerResult.Json);

    [HttpGet("text-file/raw")]
    [Operation(nameof(Operation.GetTextFileRaw))]
    public IActionResult TextFileRaw() => new SharedAnswerResult(answers, files.Text, PayloadFiles.TextContentType);

    [HttpGet("pdf")]
    [Operation(nameof(Operation.GetPdf))]
    [ProducesResponseType<FilePayload>(StatusCodes.Status200OK, SharedAnswerResult.Json)]
    public IActionResult Pdf() => new SharedAnswerResult(answers, answers.Json(files.PdfFile, Json), SharedAnswerResult.Json);

    [HttpGet("pdf/raw")]
    [Operation(nameof(Operation.GetPdfRaw))]
    public IActionResult PdfRaw() => new SharedAnswerResult(answers, files.Pdf, PayloadFiles.PdfContentType);

    /// <summary>The options MVC's JSON formatter writes with (its encoder set), so a shared answer is the bytes MVC would write.</summary>
    private System.Text.Json.JsonSerializerOptions Json => mvc.Value.OutputFormatters.OfType<SystemTextJsonOutputFormatter>().First().SerializerOptions;
}
