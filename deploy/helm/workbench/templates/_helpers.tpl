{{/* Names, labels and the environment shared by the API, the worker and the migration Job. */}}

{{- define "workbench.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The release's prefix of every object: the release name, with the chart's name unless it contains it. */}}
{{- define "workbench.fullname" -}}
{{- if contains .Chart.Name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "workbench.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "workbench.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels of one component (api, worker, migrate): call with (dict "ctx" $ "component" "api"). */}}
{{- define "workbench.selectorLabels" -}}
app.kubernetes.io/name: {{ include "workbench.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "workbench.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* The chart's Secret: generated keys and, when given as values, DATABASE_URL. */}}
{{- define "workbench.secretName" -}}
{{- include "workbench.fullname" . }}
{{- end }}

{{- define "workbench.keysSecretName" -}}
{{- default (include "workbench.secretName" .) .Values.keys.existingSecret }}
{{- end }}

{{- define "workbench.databaseSecretName" -}}
{{- default (include "workbench.secretName" .) .Values.database.existingSecret }}
{{- end }}

{{- define "workbench.databaseSecretKey" -}}
{{- if .Values.database.existingSecret }}{{ .Values.database.existingSecretKey }}{{ else }}DATABASE_URL{{ end }}
{{- end }}

{{- define "workbench.claimName" -}}
{{- default (printf "%s-files" (include "workbench.fullname" .)) .Values.files.persistence.existingClaim }}
{{- end }}

{{- define "workbench.baseUrl" -}}
{{- if .Values.baseUrl }}{{ .Values.baseUrl }}
{{- else if .Values.ingress.enabled }}{{ printf "%s://%s" (ternary "https" "http" .Values.ingress.tls.enabled) .Values.ingress.host }}
{{- else }}http://localhost:8080
{{- end }}
{{- end }}

{{/* What the values forbid or require, checked once by every template that renders pods. */}}
{{- define "workbench.validate" -}}
{{- with .Values.files.objectStorage }}
{{- if and .enabled (not (regexMatch "^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/.*)?$" (default "" .url))) }}
{{- fail "files.objectStorage.url: set s3://bucket/prefix when files.objectStorage.enabled is true" }}
{{- end }}
{{- end }}
{{- if not (or .Values.database.url .Values.database.existingSecret) }}
{{- fail "set database.existingSecret (a Secret with DATABASE_URL) or database.url" }}
{{- end }}
{{- if and .Values.temporal.tls.existingSecret (not .Values.temporal.tls.enabled) }}
{{- fail "temporal.tls.existingSecret is set but temporal.tls.enabled is false" }}
{{- end }}
{{- end }}

{{/* Environment variables of every process. */}}
{{- define "workbench.env" -}}
- name: NODE_ENV
  value: production
- name: APP_PROFILES
  value: {{ .Values.profiles | quote }}
- name: APP_BASE_URL
  value: {{ include "workbench.baseUrl" . | quote }}
{{- with .Values.files.objectStorage }}
{{- if .enabled }}
- name: FILES_STORE
  value: {{ .url | quote }}
{{- with .region }}
- name: AWS_REGION
  value: {{ . | quote }}
{{- end }}
{{- with .endpoint }}
- name: AWS_ENDPOINT_URL_S3
  value: {{ . | quote }}
{{- end }}
{{- with .credentialsSecret }}
- name: AWS_ACCESS_KEY_ID
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: AWS_ACCESS_KEY_ID
- name: AWS_SECRET_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: AWS_SECRET_ACCESS_KEY
{{- end }}
{{- else }}
- name: FILES_DIR
  value: {{ $.Values.files.mountPath | quote }}
{{- end }}
{{- end }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "workbench.databaseSecretName" . }}
      key: {{ include "workbench.databaseSecretKey" . }}
- name: JWT_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ include "workbench.keysSecretName" . }}
      key: JWT_SECRET
- name: DATA_ENCRYPTION_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "workbench.keysSecretName" . }}
      key: DATA_ENCRYPTION_KEY
- name: TEMPORAL_ADDRESS
  value: {{ .Values.temporal.address | quote }}
- name: TEMPORAL_NAMESPACE
  value: {{ .Values.temporal.namespace | quote }}
- name: TEMPORAL_TASK_QUEUE
  value: {{ .Values.temporal.taskQueue | quote }}
{{- with .Values.temporal.uiUrl }}
- name: TEMPORAL_UI_URL
  value: {{ . | quote }}
{{- end }}
{{- with .Values.temporal.apiKey.existingSecret }}
- name: TEMPORAL_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.temporal.apiKey.key }}
{{- end }}
{{- with .Values.temporal.tls }}
{{- if .enabled }}
- name: TEMPORAL_TLS
  value: "true"
{{- with .serverName }}
- name: TEMPORAL_TLS_SERVER_NAME
  value: {{ . | quote }}
{{- end }}
{{- if .existingSecret }}
{{- with .clientCertKey }}
- name: TEMPORAL_TLS_CLIENT_CERT_PATH
  value: /etc/workbench/temporal-tls/{{ . }}
{{- end }}
{{- with .clientKeyKey }}
- name: TEMPORAL_TLS_CLIENT_KEY_PATH
  value: /etc/workbench/temporal-tls/{{ . }}
{{- end }}
{{- with .serverCaKey }}
- name: TEMPORAL_TLS_SERVER_CA_CERT_PATH
  value: /etc/workbench/temporal-tls/{{ . }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "workbench.envFrom" -}}
{{- range .Values.extraEnvFromSecrets }}
- secretRef:
    name: {{ . }}
{{- end }}
{{- end }}

{{/* Volumes of the API and worker pods: the shared files, /tmp, the Temporal client certificate. */}}
{{- define "workbench.volumes" -}}
{{- if not .ctx.Values.files.objectStorage.enabled }}
- name: files
  persistentVolumeClaim:
    claimName: {{ include "workbench.claimName" .ctx }}
{{- end }}
- name: tmp
  emptyDir:
    sizeLimit: {{ .tmpSizeLimit }}
{{- include "workbench.postgresTlsVolume" .ctx }}
{{- with .ctx.Values.temporal.tls.existingSecret }}
- name: temporal-tls
  secret:
    secretName: {{ . }}
    defaultMode: 0440
{{- end }}
{{- end }}

{{- define "workbench.volumeMounts" -}}
{{- if not .Values.files.objectStorage.enabled }}
- name: files
  mountPath: {{ .Values.files.mountPath }}
{{- end }}
- name: tmp
  mountPath: /tmp
{{- include "workbench.postgresTlsMount" . }}
{{- if .Values.temporal.tls.existingSecret }}
- name: temporal-tls
  mountPath: /etc/workbench/temporal-tls
  readOnly: true
{{- end }}
{{- end }}

{{/* The first administrator (profile prod), for the API and the migration Job. */}}
{{- define "workbench.adminEnv" -}}
{{- with .Values.admin.existingSecret }}
- name: ADMIN_USERNAME
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: ADMIN_USERNAME
- name: ADMIN_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: ADMIN_PASSWORD
- name: ADMIN_EMAIL
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: ADMIN_EMAIL
      optional: true
{{- end }}
{{- end }}

{{/* The CA of a PostgreSQL server with a private CA (database.tls.caSecret), for DATABASE_URL's sslrootcert. */}}
{{- define "workbench.postgresTlsVolume" -}}
{{- with .Values.database.tls.caSecret }}
- name: postgres-tls
  secret:
    secretName: {{ . }}
    defaultMode: 0440
    items:
      - key: ca.crt
        path: ca.crt
{{- end }}
{{- end }}

{{- define "workbench.postgresTlsMount" -}}
{{- if .Values.database.tls.caSecret }}
- name: postgres-tls
  mountPath: /etc/workbench/postgres-tls
  readOnly: true
{{- end }}
{{- end }}
