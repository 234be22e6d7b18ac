using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.Rest.Api.Controllers;

[ApiController]
[Route("api/shapes")]
public sealed class ShapesController : ControllerBase
{
    [HttpGet("{kind}/{id}")]
    [Operation(nameof(Operation.GetShape))]
    public ShapeDto Shape(string kind, int id) => ShapeOperations.Get(kind, id);

    [HttpGet("{kind}")]
    [Operation(nameof(Operation.ListShapes))]
    public IReadOnlyList<ShapeDto> Shapes(string kind, int? count) => ShapeOperations.List(kind, count);
}
