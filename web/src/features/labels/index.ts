/** The labels feature as the node side panel uses it: label, rule, relation and export sections. */
export {
  ClassifierLabelsSection,
  type ClassifierLabelsSectionProps,
} from './components/ClassifierLabelsSection';
export { NerLabelsSection, type NerLabelsSectionProps } from './components/NerLabelsSection';
export { MatchingRulesSection, type MatchingRulesSectionProps } from './components/MatchingRulesSection';
export { RelationsSection, type RelationsSectionProps } from './components/RelationsSection';
export { LabelsExportSection } from './components/LabelsExportSection';
export { labelKeys, labelQueries } from './api';
export { NerLabelModal, type NerLabelModalProps } from './components/NerLabelModal';
