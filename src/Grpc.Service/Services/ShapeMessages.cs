using ProtocolBench.Shared.Domain.Shapes;

namespace ProtocolBench.Grpc.Service.Services;

/// <summary>ShapeDto to the proto message, by hand.</summary>
public static class ShapeMessages
{
    public static Shape ToMessage(this ShapeDto shape)
    {
        var message = new Shape { Id = shape.Id, Name = shape.Name, Count = shape.Count, Ratio = shape.Ratio };
        foreach (var child in shape.Children)
        {
            message.Children.Add(child.ToMessage());
        }

        return message;
    }
}
