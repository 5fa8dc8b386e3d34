{{/*
The ClusterRole and ClusterRoleBinding name: upstream's in the hypershift namespace, suffixed with the namespace
elsewhere, so a second install in another namespace keeps its own binding (as `hcp install` names them).
*/}}
{{- define "hcp-operator.clusterRoleName" -}}
{{- if eq .Release.Namespace "hypershift" -}}
hypershift-operator
{{- else -}}
hypershift-operator-{{ .Release.Namespace }}
{{- end -}}
{{- end -}}

{{/* The operator's replicas: none in development mode. */}}
{{- define "hcp-operator.replicas" -}}
{{- if .Values.development -}}
0
{{- else -}}
{{ .Values.replicas }}
{{- end -}}
{{- end -}}
