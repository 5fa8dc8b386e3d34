// Package v20170312 offers the few types and calls flannel's tencent-vpc backend uses, each call failing with
// ErrUnavailable: this build of flannel has no Tencent Cloud support (the SDK is not served by the module proxy).
package v20170312

import "errors"

// ErrUnavailable is what every call answers.
var ErrUnavailable = errors.New("the tencent-vpc backend is not available in this build of flannel: the Tencent Cloud SDK was not served by the Go module proxy")

// Filter narrows a route-table query.
type Filter struct {
	Name   *string
	Values []*string
}

// Route is one route of a route table.
type Route struct {
	DestinationCidrBlock *string
	GatewayType          *string
	GatewayId            *string
	RouteId              *uint64
	RouteType            *string
	Enabled              *bool
}

// RouteTable is a VPC route table.
type RouteTable struct {
	RouteTableId *string
	RouteSet     []*Route
}

// DescribeRouteTablesRequest asks for route tables.
type DescribeRouteTablesRequest struct{ Filters []*Filter }

// DescribeRouteTablesResponse would list route tables; never returned here.
type DescribeRouteTablesResponse struct {
	Response *struct{ RouteTableSet []*RouteTable }
}

// RoutesRequest adds or removes routes of a table.
type RoutesRequest struct {
	RouteTableId *string
	Routes       []*Route
}

// Client would talk to the VPC API.
type Client struct{}

// NewClientWithSecretId fails: there is no SDK behind this module.
func NewClientWithSecretId(_, _, _ string) (*Client, error) { return nil, ErrUnavailable }

// NewDescribeRouteTablesRequest returns an empty request.
func NewDescribeRouteTablesRequest() *DescribeRouteTablesRequest { return &DescribeRouteTablesRequest{} }

// NewDeleteRoutesRequest returns an empty request.
func NewDeleteRoutesRequest() *RoutesRequest { return &RoutesRequest{} }

// NewCreateRoutesRequest returns an empty request.
func NewCreateRoutesRequest() *RoutesRequest { return &RoutesRequest{} }

// DescribeRouteTables fails.
func (*Client) DescribeRouteTables(*DescribeRouteTablesRequest) (*DescribeRouteTablesResponse, error) {
	return nil, ErrUnavailable
}

// DeleteRoutes fails.
func (*Client) DeleteRoutes(*RoutesRequest) (struct{}, error) { return struct{}{}, ErrUnavailable }

// CreateRoutes fails.
func (*Client) CreateRoutes(*RoutesRequest) (struct{}, error) { return struct{}{}, ErrUnavailable }
