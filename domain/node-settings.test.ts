import { MASKED_PASSWORD, type NodeSettings } from './graph-types';
import { defaultSettings, mergeSettings, normalizeSettings, SETTINGS_FIELDS } from './node-settings';

describe('settings fields, defaults and merging', () => {
  it('gives each type its own fields only', () => {
    expect(Object.keys(defaultSettings('CLF'))).toEqual(['annotatorsSeeEachOther']);
    expect(Object.keys(defaultSettings('FILE_PARSER'))).toEqual([]);
    expect(Object.keys(defaultSettings('SEND_TO_SFTP')).sort()).toEqual(
      [...SETTINGS_FIELDS.SEND_TO_SFTP].sort(),
    );
    expect(defaultSettings('SPAN')).toEqual({
      supportedTaggingTypes: ['token'],
      relationPriorityMode: false,
      annotatorsSeeEachOther: false,
    });
    expect(defaultSettings('GDU_UPLOAD')).toEqual({ active: true });
  });

  it('keeps the stored value of a masked or absent field and drops foreign fields', () => {
    const stored: NodeSettings = { smtpHost: 'smtp.test', username: 'old', subject: 's' };
    const merged = mergeSettings(
      'SEND_MAIL',
      { username: MASKED_PASSWORD, subject: 'new', prompt: 'x' },
      stored,
    );
    expect(merged).toMatchObject({ smtpHost: 'smtp.test', username: 'old', subject: 'new' });
    expect(merged).not.toHaveProperty('prompt');
  });

  it('turns negative temporary ids of receivers and transfer rules into null', () => {
    const s = normalizeSettings({
      mailReceivers: [
        { id: -5, email: 'a@b.test', type: 'DO' },
        { id: 3, email: 'c@d.test', type: 'DW' },
      ],
      sftpTransferRules: [{ id: -1, name: 'r', sourceId: 1, targetId: null, deleteAfterTransfer: false }],
    });
    expect(s.mailReceivers!.map((r) => r.id)).toEqual([null, 3]);
    expect(s.sftpTransferRules![0].id).toBeNull();
  });
});
