// Stands in for the Tencent Cloud VPC SDK, which the Go module proxy refuses: flannel imports it for its
// tencent-vpc backend only. Every call fails, so that backend refuses to start and every other backend is unaffected.
module github.com/tencentcloud/tencentcloud-sdk-go/tencentcloud/vpc

go 1.22
