/** A template editor bound to the node form: its value, message, read-only state and available wildcards. */
import type { WildcardContext } from '@domain/wildcards';
import { useNodeForm } from '../form';
import { useWildcards } from '../useWildcards';
import { WildcardEditor, type WildcardEditorProps } from './WildcardEditor';

export interface TemplateFieldProps extends Omit<
  WildcardEditorProps,
  'wildcards' | 'violation' | 'disabled' | 'value'
> {
  /** Error path of the field. */
  field: string;
  context: WildcardContext;
  value: string | null | undefined;
}

export function TemplateField({ field, context, value, ...rest }: TemplateFieldProps) {
  const { error, readOnly } = useNodeForm();
  const wildcards = useWildcards(context);
  return (
    <WildcardEditor
      {...rest}
      value={value ?? ''}
      wildcards={wildcards}
      violation={error(field)}
      disabled={readOnly}
    />
  );
}

/**
 * The editor state stored beside a template. The rich editor of the original product is replaced by a plain
 * textarea, so the state only records the text (the API stores editor states as opaque strings).
 */
export const plainEditorState = (text: string): string | null =>
  text ? JSON.stringify({ editor: 'plain', text }) : null;
