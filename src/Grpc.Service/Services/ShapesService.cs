using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.Grpc.Service.Services;

/// <summary>Erftbjerg's payload shapes over gRPC; ShapeOperations builds them, this maps them to the one recursive message.</summary>
public sealed class ShapesService : V1.Shapes.ShapesBase
{
    public const string ServiceName = "protocolbench.v1.Shapes";

    [Operation(nameof(Operation.GetShape))]
    public override Task<Shape> Get(GetShapeRequest request, ServerCallContext context) =>
        Task.FromResult(ShapeOperations.Get(request.Kind, request.Id).ToMessage());

    [Operation(nameof(Operation.ListShapes))]
    public override Task<ShapeList> List(ListShapesRequest request, ServerCallContext context)
    {
        var shapes = ShapeOperations.List(request.Kind, request.HasCount ? request.Count : null);
        var list = new ShapeList();
        list.Shapes.Capacity = shapes.Count;
        foreach (var shape in shapes)
        {
            list.Shapes.Add(shape.ToMessage());
        }

        return Task.FromResult(list);
    }
}
