using System.Text.Encodings.Web;
using GraphQL.Validation.Rules.Custom;
using ProtocolBench.Shared.Hosting.Answers;
using ProtocolBench.Shared.Hosting.Operations;
using GraphQLServiceLifetime = GraphQL.DI.ServiceLifetime;

namespace ProtocolBench.GraphQL.Api;

public static class GraphQLApiExtensions
{
    /// <summary>graphql-dotnet (HotChocolate is not on the package source): schema, System.Text.Json, limits, errors.</summary>
    public static IHostApplicationBuilder AddGraphQLApi(this IHostApplicationBuilder builder)
    {
        // Introspection (and with it any IDE or code generator) only in Development; the SDL is in schema.graphql.
        var development = builder.Environment.IsDevelopment();
        // The same escaping as REST (ASP.NET Core's JsonOptions): UTF-8 as is, so both send the same bytes.
        var json = new GraphQLJson(options =>
        {
            options.Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping;
            options.Converters.Add(new RequestInputsConverter());
            options.Converters.Add(new SharedBase64Converter());
        });
        builder.Services.AddSingleton(json);
        builder.Services.AddGraphQL(graphql =>
        {
            graphql
                .AddSchema<LibrarySchema>()
                .AddGraphTypes(typeof(LibrarySchema).Assembly)
                .AddSerializer(json)
                .AddErrorInfoProvider<ClientErrorInfoProvider>()
                .AddUnhandledExceptionHandler(ClientErrors.Translate)
                .AddComplexityAnalyzer(options => Cost.Configure(options, allowIntrospection: development));
            if (!development)
            {
                graphql.AddValidationRule(NoIntrospectionValidationRule.Instance);
            }

            graphql.Services.Register<IDocumentBuilder, LimitedDocumentBuilder>(GraphQLServiceLifetime.Singleton, replace: true);
        });
        builder.Services.AddSingleton<GraphQLEndpoint>();
        builder.Services.AddSingleton<IOperationBindings, GraphQLOperationBindings>();
        builder.Services.AddProblemDetails();
        return builder;
    }

    public static WebApplication MapGraphQLApi(this WebApplication app)
    {
        var endpoint = app.Services.GetRequiredService<GraphQLEndpoint>();
        app.MapPost(GraphQLEndpoint.Path, (RequestDelegate)endpoint.PostAsync);
        app.MapGet(GraphQLEndpoint.Path, (RequestDelegate)endpoint.GetAsync);
        return app;
    }
}
