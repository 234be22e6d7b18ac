using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.Rest.Api.Controllers;

[ApiController]
[Route("api/authors")]
public sealed class AuthorsController(LibraryDbContext db) : ControllerBase
{
    [HttpGet("search")]
    [Operation(nameof(Operation.SearchAuthors))]
    public Task<IReadOnlyList<AuthorDto>> Search(string? phrase, int? limit) =>
        db.SearchAsync(phrase, limit, HttpContext.RequestAborted);

    [HttpGet]
    [Operation(nameof(Operation.ListAuthors))]
    public Task<IReadOnlyList<AuthorDto>> List(int? skip, int? take) =>
        db.ListAsync(skip, take, HttpContext.RequestAborted);

    [HttpGet("{id}", Name = "GetAuthor")]
    [Operation(nameof(Operation.GetAuthor))]
    public Task<AuthorDto> Get(int id) => db.GetAsync(id, HttpContext.RequestAborted);

    [HttpPost]
    [Operation(nameof(Operation.CreateAuthor))]
    public async Task<CreatedAtRouteResult> Create(AuthorInput input)
    {
        var author = await db.CreateAsync(input, HttpContext.RequestAborted);
        return CreatedAtRoute("GetAuthor", new { id = author.Id }, author);
    }

    [HttpPut("{id}")]
    [Operation(nameof(Operation.UpdateAuthor))]
    public Task<AuthorDto> Update(int id, AuthorInput input) => db.UpdateAsync(id, input, HttpContext.RequestAborted);

    [HttpDelete("{id}")]
    [Operation(nameof(Operation.DeleteAuthor))]
    public async Task<NoContentResult> Delete(int id)
    {
        await db.DeleteAsync(id, HttpContext.RequestAborted);
        return NoContent();
    }
}
