using Microsoft.AspNetCore.Mvc;
using ProtocolBench.Shared.Domain.Authors;
using ProtocolBench.Shared.Domain.Data;

namespace ProtocolBench.Rest.Api.Controllers;

[ApiController]
[Route("api/authors")]
public sealed class AuthorsController(LibraryDbContext db) : ControllerBase
{
    [HttpGet("search")]
    public Task<IReadOnlyList<AuthorDto>> Search(string? phrase, int? limit) =>
        db.SearchAsync(phrase, limit, HttpContext.RequestAborted);

    [HttpGet]
    public Task<IReadOnlyList<AuthorDto>> List(int? skip, int? take) =>
        db.ListAsync(skip, take, HttpContext.RequestAborted);

    [HttpGet("{id:int}", Name = "GetAuthor")]
    public Task<AuthorDto> Get(int id) => db.GetAsync(id, HttpContext.RequestAborted);

    [HttpPost]
    public async Task<CreatedAtRouteResult> Create(AuthorInput input)
    {
        var author = await db.CreateAsync(input, HttpContext.RequestAborted);
        return CreatedAtRoute("GetAuthor", new { id = author.Id }, author);
    }

    [HttpPut("{id:int}")]
    public Task<AuthorDto> Update(int id, AuthorInput input) => db.UpdateAsync(id, input, HttpContext.RequestAborted);

    [HttpDelete("{id:int}")]
    public async Task<NoContentResult> Delete(int id)
    {
        await db.DeleteAsync(id, HttpContext.RequestAborted);
        return NoContent();
    }
}
