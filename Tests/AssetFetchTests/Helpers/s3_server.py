#!/usr/bin/env python3
"""moto S3 on 127.0.0.1 with SigV4 enforced, for AssetFetchTests.

Usage: s3_server.py READY_FILE [--empty-bucket NAME]
Starts moto on an ephemeral port, creates an IAM user with an access key allowed s3:*,
a bucket `assets` with the object `fonts/Mono Regular.ttf` (content printed in the ready file)
or, with --empty-bucket (ResultStoreTests, which write), only an empty bucket NAME,
then turns authentication on (every following request must be signed by a known key) and writes
one JSON line to READY_FILE: {"port", "accessKey", "secretKey", "bucket", "key", "content"}.
Runs until stdin closes or SIGTERM.
"""
import json
import os
import signal
import sys

# moto reads this at import time; authentication is turned on later through /moto-api/reset-auth.
os.environ.setdefault("INITIAL_NO_AUTH_ACTION_COUNT", "inf")
os.environ.setdefault("AWS_ACCESS_KEY_ID", "setup")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "setup")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")

try:
    import boto3
    import urllib.request
    from moto.server import ThreadedMotoServer
except ImportError as error:  # the Swift test shows this message
    sys.stderr.write(f"missing Python package ({error}); install with: pip install 'moto[server]' boto3\n")
    sys.exit(3)


def main() -> None:
    ready_file = sys.argv[1]
    empty_bucket = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--empty-bucket" else None
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    _, port = server.get_host_and_port()
    endpoint = f"http://127.0.0.1:{port}"

    iam = boto3.client("iam", endpoint_url=endpoint, region_name="us-east-1")
    iam.create_user(UserName="ripple")
    iam.put_user_policy(
        UserName="ripple",
        PolicyName="s3",
        PolicyDocument=json.dumps(
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}
        ),
    )
    key = iam.create_access_key(UserName="ripple")["AccessKey"]

    s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")
    bucket, object_key, content = empty_bucket or "assets", "", ""
    s3.create_bucket(Bucket=bucket)
    if not empty_bucket:
        object_key, content = "fonts/Mono Regular.ttf", "private font bytes " * 1000
        s3.put_object(Bucket=bucket, Key=object_key, Body=content.encode())

    # From now on every request needs a valid SigV4 signature from a key moto knows.
    request = urllib.request.Request(
        f"{endpoint}/moto-api/reset-auth", data=b"0", method="POST", headers={"Content-Type": "text/plain"}
    )
    urllib.request.urlopen(request).read()

    info = {
        "port": port,
        "accessKey": key["AccessKeyId"],
        "secretKey": key["SecretAccessKey"],
        "bucket": bucket,
        "key": object_key,
        "content": content,
    }
    with open(ready_file + ".tmp", "w") as f:
        f.write(json.dumps(info) + "\n")
    os.rename(ready_file + ".tmp", ready_file)

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        sys.stdin.read()  # until the test closes our stdin (or kills us)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
