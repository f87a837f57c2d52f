{{/* Names, labels and the pieces every pod of the chart shares. */}}

{{- define "durable-mcp.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The release's full name: the release name alone when it already holds the chart's name. */}}
{{- define "durable-mcp.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* A component's name (list $ "api"): the full name cut so the component always fits in 63 characters. */}}
{{- define "durable-mcp.componentname" -}}
{{- $global := index . 0 -}}
{{- $component := index . 1 -}}
{{- printf "%s-%s" (include "durable-mcp.fullname" $global | trunc (sub 62 (len $component) | int) | trimSuffix "-") $component -}}
{{- end -}}

{{- define "durable-mcp.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels of a component (list $ "api"). */}}
{{- define "durable-mcp.selectorLabels" -}}
{{- $global := index . 0 -}}
app.kubernetes.io/name: {{ include "durable-mcp.name" $global }}
app.kubernetes.io/instance: {{ $global.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{/* Every label of a component's objects (list $ "api"). */}}
{{- define "durable-mcp.labels" -}}
{{- $global := index . 0 -}}
{{ include "durable-mcp.selectorLabels" . }}
helm.sh/chart: {{ include "durable-mcp.chart" $global }}
app.kubernetes.io/version: {{ $global.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $global.Release.Service }}
app.kubernetes.io/part-of: {{ include "durable-mcp.name" $global }}
{{- with $global.Values.additionalLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Annotations every object carries (additionalAnnotations), for a `metadata.annotations` block. */}}
{{- define "durable-mcp.annotations" -}}
{{- with .Values.additionalAnnotations }}
{{- toYaml . }}
{{- end }}
{{- end -}}

{{- define "durable-mcp.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "durable-mcp.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
The image of a component (list $ "api"): its own image values over the global ones, so the worker
can move to a new version before the API (a pinned rollout without skew).
*/}}
{{- define "durable-mcp.image" -}}
{{- $global := index . 0 -}}
{{- $own := (index $global.Values (index . 1) | default dict).image | default dict -}}
{{- $image := merge (dict) $own $global.Values.image -}}
{{- include "durable-mcp.imageRef" (list $image $global.Chart.AppVersion) -}}
{{- end -}}

{{/*
An image reference (list $image $defaultTag): by digest when one is set (the tag is then ignored),
else by tag.
*/}}
{{- define "durable-mcp.imageRef" -}}
{{- $image := index . 0 -}}
{{- if $image.digest -}}
{{- printf "%s@%s" $image.repository $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $image.repository (default (index . 1) $image.tag) -}}
{{- end -}}
{{- end -}}

{{/*
A configuration value as the environment spells it. Helm reads YAML numbers as float64, which
print as 8.64e+07: whole numbers are printed as integers.
*/}}
{{- define "durable-mcp.envValue" -}}
{{- if kindIs "float64" . -}}
{{- if eq (float64 (int64 .)) . }}{{ int64 . }}{{ else }}{{ . }}{{ end -}}
{{- else -}}
{{- toString . -}}
{{- end -}}
{{- end -}}

{{/* A variable's value (list $ "NAME"): config's, else the service's default (generated from lib/config). */}}
{{- define "durable-mcp.configOrDefault" -}}
{{- $global := index . 0 -}}
{{- $name := index . 1 -}}
{{- if hasKey $global.Values.config $name -}}
{{- include "durable-mcp.envValue" (index $global.Values.config $name) -}}
{{- else -}}
{{- index (include "durable-mcp.variableDefaults" $global | fromYaml) $name -}}
{{- end -}}
{{- end -}}

{{/* Whether secret NAME is given (list $ "NAME"): "true" or "". */}}
{{- define "durable-mcp.secretGiven" -}}
{{- $secret := index (index . 0).Values.secrets (index . 1) | default dict -}}
{{- if or $secret.value $secret.existingSecret }}true{{ end -}}
{{- end -}}

{{/* Where secret NAME is (list $ "NAME"): a secretKeyRef body. */}}
{{- define "durable-mcp.secretKeyRef" -}}
{{- $global := index . 0 -}}
{{- $name := index . 1 -}}
{{- $secret := index $global.Values.secrets $name | default dict -}}
name: {{ default (include "durable-mcp.fullname" $global) $secret.existingSecret }}
key: {{ default $name $secret.existingSecretKey }}
{{- end -}}

{{/*
The secrets of a process (list $ "api" $except): an env entry for each it reads that is given,
never one only the other process reads (the lists are generated from lib/config/process-role.ts).
*/}}
{{- define "durable-mcp.secretEnv" -}}
{{- $global := index . 0 -}}
{{- $role := index . 1 -}}
{{- $except := index . 2 -}}
{{- range $name := compact (splitList " " (include (printf "durable-mcp.secrets.%s" $role) $global)) }}
{{- if and (include "durable-mcp.secretGiven" (list $global $name)) (not (has $name $except)) }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      {{- include "durable-mcp.secretKeyRef" (list $global $name) | nindent 6 }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Fails the render naming each required secret of a process (list $ "api") that is not given. */}}
{{- define "durable-mcp.requireSecrets" -}}
{{- $global := index . 0 -}}
{{- $role := index . 1 -}}
{{- range $name := compact (splitList " " (include (printf "durable-mcp.secrets.required.%s" $role) $global)) }}
{{- if not (include "durable-mcp.secretGiven" (list $global $name)) }}
{{- fail (printf "secrets.%s is required by the %s: set its value, or existingSecret (and existingSecretKey)" $name $role) }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Where the Temporal TLS Secret is mounted in every pod that talks to Temporal. */}}
{{- define "durable-mcp.temporalTlsDir" -}}/etc/durable-mcp/temporal-tls{{- end -}}

{{/* Whether pods mount the Temporal TLS Secret: "true" or "". */}}
{{- define "durable-mcp.temporalTlsMounted" -}}
{{- $tls := .Values.temporal.tls -}}
{{- if and $tls.enabled (or $tls.clientCertificate $tls.serverCA) }}true{{ end -}}
{{- end -}}

{{/* The Temporal client settings, in the names the service and the temporal CLI read (a map). */}}
{{- define "durable-mcp.temporalEnv" -}}
{{- $tls := .Values.temporal.tls -}}
{{- $dir := include "durable-mcp.temporalTlsDir" . -}}
TEMPORAL_ADDRESS: {{ required "temporal.address is required: the host:port of your Temporal frontend or Temporal Cloud namespace" .Values.temporal.address | quote }}
TEMPORAL_NAMESPACE: {{ .Values.temporal.namespace | quote }}
{{- if $tls.enabled }}
TEMPORAL_TLS: "true"
{{- with $tls.serverName }}
TEMPORAL_TLS_SERVER_NAME: {{ . | quote }}
{{- end }}
{{- if $tls.serverCA }}
TEMPORAL_TLS_SERVER_CA_CERT_PATH: {{ printf "%s/ca.crt" $dir | quote }}
{{- end }}
{{- if $tls.clientCertificate }}
TEMPORAL_TLS_CLIENT_CERT_PATH: {{ printf "%s/tls.crt" $dir | quote }}
TEMPORAL_TLS_CLIENT_KEY_PATH: {{ printf "%s/tls.key" $dir | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* The Temporal Worker Controller's name for the worker deployment: <namespace>/<WorkerDeployment name>. */}}
{{- define "durable-mcp.workerDeploymentName" -}}
{{- printf "%s/%s" .Release.Namespace (include "durable-mcp.componentname" (list . "worker")) -}}
{{- end -}}

{{/*
The volumes every pod of the processes has: /tmp, and the Temporal TLS Secret when used (not named
`temporal-tls`, the Worker Controller's own volume in the pods it makes).
*/}}
{{- define "durable-mcp.volumes" -}}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- if include "durable-mcp.temporalTlsMounted" . }}
- name: durable-mcp-temporal-tls
  secret:
    secretName: {{ required "temporal.tls.existingSecret is required with clientCertificate or serverCA" .Values.temporal.tls.existingSecret }}
    defaultMode: 288 # 0440 in octal: read by the owner and the pod's fsGroup only
{{- end }}
{{- end -}}

{{- define "durable-mcp.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if include "durable-mcp.temporalTlsMounted" . }}
- name: durable-mcp-temporal-tls
  mountPath: {{ include "durable-mcp.temporalTlsDir" . }}
  readOnly: true
{{- end }}
{{- end -}}

{{/* Topology spread of a component (list $ "api" .Values.api.topologySpread). */}}
{{- define "durable-mcp.topologySpread" -}}
{{- $spread := index . 2 -}}
{{- if $spread.enabled }}
topologySpreadConstraints:
{{- range $key := $spread.topologyKeys }}
  - maxSkew: {{ $spread.maxSkew }}
    topologyKey: {{ $key }}
    whenUnsatisfiable: {{ $spread.whenUnsatisfiable }}
    labelSelector:
      matchLabels:
        {{- include "durable-mcp.selectorLabels" (list (index $ 0) (index $ 1)) | nindent 8 }}
{{- end }}
{{- end }}
{{- end -}}

{{/* What every pod of the chart sets: its account, no API token, its security context, pull secrets. */}}
{{- define "durable-mcp.podBasics" -}}
serviceAccountName: {{ include "durable-mcp.serviceAccountName" . }}
automountServiceAccountToken: false
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* A digest of the configuration, so a change rolls the pods (and, pinned, makes a new worker version). */}}
{{- define "durable-mcp.configChecksum" -}}
{{- printf "%s%s%s" (toYaml .Values.config) (toYaml .Values.secrets) (toYaml .Values.temporal) | sha256sum -}}
{{- end -}}

{{/* The static policy scan's (checkov) findings the processes' pods justify, as annotations with their reasons. */}}
{{- define "durable-mcp.processScanSkips" -}}
checkov.io/skip1: CKV_K8S_35=The service reads its secrets from the environment only; each comes from a Secret by secretKeyRef and each process gets only those it reads
checkov.io/skip2: CKV_K8S_43=The image is pinned by tag (the chart's appVersion); image.digest pins it by digest where the registry allows
checkov.io/skip3: CKV_K8S_15=IfNotPresent with a pinned tag or digest; image.pullPolicy sets Always where tags are mutable
{{- end -}}
