"""gRPC replies read without generated code, for the Python stack (cell.py) and the Locust engine (../locust/calls.py).

ProtocolBench sends protocolbench.proto's descriptor (serialized FileDescriptorProtos, base64) with each job; the reply's
message class is built from it, so a Python program reads a reply as one with generated code would.
"""

import base64

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory


def reply_class(job):
    """The reply's message class, built from the descriptors the job carries."""
    pool = descriptor_pool.DescriptorPool()
    for encoded in job["descriptors"]:
        pool.Add(descriptor_pb2.FileDescriptorProto.FromString(base64.b64decode(encoded)))
    descriptor = pool.FindMessageTypeByName(job["reply_type"])
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(descriptor)
    return message_factory.MessageFactory(pool).GetPrototype(descriptor)
