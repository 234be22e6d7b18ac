"""Prints each failed test of the given TRX files on a line: its name, then the first line of its message.

.ci/run repeats these above its last line, since a run's tail is often all that is kept of it.
"""
import sys
import xml.etree.ElementTree as ElementTree

NS = {"t": "http://microsoft.com/schemas/VisualStudio/TeamTest/2010"}
FAILED = {"Failed", "Error", "Timeout", "Aborted"}

for path in sys.argv[1:]:
    for result in ElementTree.parse(path).getroot().iterfind(".//t:UnitTestResult", NS):
        if result.get("outcome") not in FAILED:
            continue
        message = result.findtext("t:Output/t:ErrorInfo/t:Message", default="", namespaces=NS).strip()
        first_line = message.splitlines()[0][:300] if message else "(no message)"
        print(f"test: {result.get('testName')}: {first_line}")
