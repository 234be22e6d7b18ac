using Microsoft.AspNetCore.Mvc;
using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Domain.Payloads;

namespace ProtocolBench.Rest.Api.Controllers;

[ApiController]
[Route("api/payloads")]
public sealed class PayloadsController(PayloadFiles files) : ControllerBase
{
    [HttpGet("clone")]
    public CloneResult Clone(string? text, int? count) => new(PayloadOperations.Clone(text, count));

    [HttpGet("int-max")]
    public IntMaxResult IntMax() => new(PayloadOperations.IntMax);

    [HttpGet("ints")]
    public IntsResult Ints(int? count) => new(PayloadOperations.Ints(count));

    [HttpGet("sample")]
    public AuthorDto Sample() => PayloadOperations.Sample;

    // The paper's Web API returned files inside JSON, base64-encoded; /raw sends the bytes as they are.
    [HttpGet("text-file")]
    public FilePayload TextFile() => new(PayloadFiles.TextFileName, "text/plain; charset=utf-8", files.Text);

    [HttpGet("text-file/raw")]
    public IActionResult TextFileRaw() => File(files.Text, "text/plain; charset=utf-8");

    [HttpGet("pdf")]
    public FilePayload Pdf() => new(PayloadFiles.PdfFileName, "application/pdf", files.Pdf);

    [HttpGet("pdf/raw")]
    public IActionResult PdfRaw() => File(files.Pdf, "application/pdf");
}
