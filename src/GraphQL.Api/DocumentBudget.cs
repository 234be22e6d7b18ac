using GraphQLParser;

namespace ProtocolBench.GraphQL.Api;

/// <summary>The counting pass of <see cref="LimitedDocumentBuilder"/>.</summary>
internal static class DocumentBudget
{
    public static void Check(GraphQLDocument document)
    {
        var fragments = new Dictionary<ROM, GraphQLFragmentDefinition>();
        var operations = new List<GraphQLOperationDefinition>();
        var fields = 0;
        foreach (var definition in document.Definitions)
        {
            switch (definition)
            {
                case GraphQLOperationDefinition operation:
                    operations.Add(operation);
                    fields += CountFields(operation.SelectionSet);
                    break;
                case GraphQLFragmentDefinition fragment:
                    fragments.TryAdd(fragment.FragmentName.Name.Value, fragment);
                    fields += CountFields(fragment.SelectionSet);
                    break;
            }

            if (fields > LimitedDocumentBuilder.MaxFields)
            {
                throw TooManyFields();
            }
        }

        // A cycle is validation's to report ("Cannot spread fragment … within itself"); its recursion is now bounded.
        if (FragmentDepth(fragments, out var cyclic) > LimitedDocumentBuilder.MaxFragmentDepth)
        {
            throw LimitedDocumentBuilder.Refused("FRAGMENTS_TOO_DEEP", $"Fragments spread fragments more than {LimitedDocumentBuilder.MaxFragmentDepth} levels deep.");
        }

        if (!cyclic)
        {
            var expanded = new ExpansionCount();
            foreach (var operation in operations)
            {
                CountExpanded(operation.SelectionSet, fragments, expanded);
            }
        }
    }

    /// <summary>Fields written in one selection set and below it, each alias checked (recursion bounded by the parser's depth limit).</summary>
    private static int CountFields(GraphQLSelectionSet? selectionSet)
    {
        if (selectionSet is null)
        {
            return 0;
        }

        var count = 0;
        foreach (var selection in selectionSet.Selections)
        {
            if (selection is GraphQLField { Alias.Name.Value.Length: > LimitedDocumentBuilder.MaxAliasChars })
            {
                throw LimitedDocumentBuilder.Refused("ALIAS_TOO_LONG", $"An alias is longer than {LimitedDocumentBuilder.MaxAliasChars} characters.");
            }

            count += selection switch
            {
                GraphQLField field => 1 + CountFields(field.SelectionSet),
                GraphQLInlineFragment inline => CountFields(inline.SelectionSet),
                _ => 0,
            };
        }

        return count;
    }

    /// <summary>
    /// The longest chain of fragments spreading fragments, by an iterative depth-first search (the chain itself may be
    /// thousands long), each fragment measured once. A spread back onto the current path is a cycle.
    /// </summary>
    private static int FragmentDepth(Dictionary<ROM, GraphQLFragmentDefinition> fragments, out bool cyclic)
    {
        cyclic = false;
        var spreads = fragments.ToDictionary(f => f.Key, f => SpreadsIn(f.Value.SelectionSet));
        var depth = new Dictionary<ROM, int>();
        var onPath = new HashSet<ROM>();
        var deepest = 0;
        foreach (var root in fragments.Keys)
        {
            var stack = new Stack<(ROM Name, int Next)>();
            Push(root);
            while (stack.Count > 0)
            {
                var (name, next) = stack.Pop();
                var children = spreads[name];
                if (next < children.Count)
                {
                    stack.Push((name, next + 1));
                    var child = children[next];
                    if (onPath.Contains(child))
                    {
                        cyclic = true;
                    }
                    else if (!depth.ContainsKey(child) && spreads.ContainsKey(child))
                    {
                        Push(child);
                    }

                    continue;
                }

                onPath.Remove(name);
                depth[name] = 1 + children.Select(c => depth.GetValueOrDefault(c)).DefaultIfEmpty().Max();
                deepest = Math.Max(deepest, depth[name]);
            }

            void Push(ROM name)
            {
                if (depth.ContainsKey(name))
                {
                    return;
                }

                onPath.Add(name);
                stack.Push((name, 0));
                if (stack.Count > LimitedDocumentBuilder.MaxFragmentDepth)
                {
                    deepest = stack.Count;
                    stack.Clear();
                }
            }

            if (deepest > LimitedDocumentBuilder.MaxFragmentDepth)
            {
                break;
            }
        }

        return deepest;
    }

    private static List<ROM> SpreadsIn(GraphQLSelectionSet? selectionSet)
    {
        var names = new List<ROM>();
        var pending = new Stack<GraphQLSelectionSet>();
        if (selectionSet is not null)
        {
            pending.Push(selectionSet);
        }

        while (pending.TryPop(out var set))
        {
            foreach (var selection in set.Selections)
            {
                switch (selection)
                {
                    case GraphQLFragmentSpread spread:
                        names.Add(spread.FragmentName.Name.Value);
                        break;
                    case GraphQLField { SelectionSet: { } child }:
                        pending.Push(child);
                        break;
                    case GraphQLInlineFragment inline:
                        pending.Push(inline.SelectionSet);
                        break;
                }
            }
        }

        return names;
    }

    /// <summary>
    /// Walks an operation as validation and execution see it: fragments expanded, and the selections of fields that share
    /// a response name merged into one set, counting fields, spreads visited and the pairs of fields to compare.
    /// Fragments are acyclic and at most <see cref="LimitedDocumentBuilder.MaxFragmentDepth"/> deep here, so this ends.
    /// </summary>
    private static void CountExpanded(GraphQLSelectionSet root, Dictionary<ROM, GraphQLFragmentDefinition> fragments, ExpansionCount count)
    {
        var merged = new Stack<List<GraphQLSelectionSet>>();
        merged.Push([root]);
        while (merged.TryPop(out var sets))
        {
            var byResponseName = new Dictionary<ROM, SameName>();
            var pending = new Stack<GraphQLSelectionSet>(sets);
            while (pending.TryPop(out var set))
            {
                foreach (var selection in set.Selections)
                {
                    switch (selection)
                    {
                        case GraphQLField field:
                            if (++count.Fields > LimitedDocumentBuilder.MaxFields)
                            {
                                throw TooManyFields();
                            }

                            var name = (field.Alias?.Name ?? field.Name).Value;
                            if (!byResponseName.TryGetValue(name, out var sameName))
                            {
                                byResponseName[name] = sameName = new SameName();
                            }

                            // The new field is compared with each earlier one of the same name.
                            count.Merges += sameName.Fields++;
                            if (field.SelectionSet is not null)
                            {
                                sameName.Children.Add(field.SelectionSet);
                            }

                            if (count.Merges > LimitedDocumentBuilder.MaxFieldMerges)
                            {
                                throw LimitedDocumentBuilder.Refused("TOO_MANY_FIELD_MERGES",
                                    $"More than {LimitedDocumentBuilder.MaxFieldMerges} pairs of fields share a response name; give each field its own alias.");
                            }

                            break;
                        case GraphQLInlineFragment inline:
                            pending.Push(inline.SelectionSet);
                            break;
                        case GraphQLFragmentSpread spread:
                            if (++count.Spreads > LimitedDocumentBuilder.MaxFragmentSpreads)
                            {
                                throw LimitedDocumentBuilder.Refused("TOO_MANY_FRAGMENT_SPREADS",
                                    $"The operations spread more than {LimitedDocumentBuilder.MaxFragmentSpreads} fragments when expanded.");
                            }

                            if (fragments.TryGetValue(spread.FragmentName.Name.Value, out var fragment))
                            {
                                pending.Push(fragment.SelectionSet);
                            }

                            break;
                    }
                }
            }

            foreach (var sameName in byResponseName.Values.Where(n => n.Children.Count > 0))
            {
                merged.Push(sameName.Children);
            }
        }
    }

    private static ExecutionError TooManyFields() =>
        LimitedDocumentBuilder.Refused("TOO_MANY_FIELDS", $"The document has more than {LimitedDocumentBuilder.MaxFields} field selections.");

    /// <summary>The fields of one merged selection set that share a response name, and their selections.</summary>
    private sealed class SameName
    {
        public int Fields;
        public readonly List<GraphQLSelectionSet> Children = [];
    }

    private sealed class ExpansionCount
    {
        public int Fields;
        public int Spreads;
        public int Merges;
    }
}
