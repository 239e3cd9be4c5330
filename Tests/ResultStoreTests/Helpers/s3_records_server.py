#!/usr/bin/env python3
"""moto S3 on 127.0.0.1 with SigV4 enforced and an empty, writable bucket, for ResultStoreTests.

Usage: s3_records_server.py READY_FILE
Starts moto on an ephemeral port, creates an IAM user with an access key allowed s3:* and an empty bucket
`records`, then turns authentication on (every following request must be signed by a known key) and writes one
JSON line to READY_FILE: {"port", "accessKey", "secretKey", "bucket"}. Runs until stdin closes or SIGTERM.
(The approach of Tests/AssetFetchTests/Helpers/s3_server.py.)
"""
import json
import os
import signal
import sys

os.environ.setdefault("INITIAL_NO_AUTH_ACTION_COUNT", "inf")
os.environ.setdefault("AWS_ACCESS_KEY_ID", "setup")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "setup")
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")

try:
    import boto3
    import urllib.request
    from moto.server import ThreadedMotoServer
except ImportError as error:  # the Swift test shows this message
    sys.stderr.write(f"missing Python package ({error}); install with: scripts/install-deps.sh --test\n")
    sys.exit(3)


def main() -> None:
    ready_file = sys.argv[1]
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
    boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1").create_bucket(Bucket="records")

    request = urllib.request.Request(
        f"{endpoint}/moto-api/reset-auth", data=b"0", method="POST", headers={"Content-Type": "text/plain"}
    )
    urllib.request.urlopen(request).read()

    info = {"port": port, "accessKey": key["AccessKeyId"], "secretKey": key["SecretAccessKey"], "bucket": "records"}
    with open(ready_file + ".tmp", "w") as f:
        f.write(json.dumps(info) + "\n")
    os.rename(ready_file + ".tmp", ready_file)

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        sys.stdin.read()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
